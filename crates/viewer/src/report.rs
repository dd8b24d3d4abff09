//! Self-contained HTML reports: the page, its script and style, and one document, in one file
//! that any browser opens without a server or a network.

use crate::view::Document;
use crate::{ASSET_CSS, ASSET_JS};

/// The report of a document: open it in a browser.
pub fn html(doc: &Document) -> String {
    // Inside a <script> element, "</" must not appear: JSON allows writing "/" as "\/".
    let data = serde_json::to_string(doc).unwrap_or_else(|_| "null".into()).replace("</", "<\\/");
    let title = escape(&format!("tessera: {} {} ({})", doc.game, doc.kind, doc.name));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <style>\n{ASSET_CSS}</style>\n</head>\n<body class=\"report\">\n<main id=\"main\"></main>\n\
         <script type=\"application/json\" id=\"tessera-document\">{data}</script>\n<script>\n{ASSET_JS}</script>\n\
         </body>\n</html>\n"
    )
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Charts, View};

    #[test]
    fn the_document_is_embedded_safely() {
        let doc = Document {
            name: "</script><b>".into(),
            game: "totems".into(),
            kind: "eval".into(),
            views: vec![View::Charts(Charts { title: "t".into(), figures: vec![], charts: vec![] })],
        };
        let page = html(&doc);
        assert_eq!(page.matches("</script>").count(), 2, "only the two script elements close");
        assert!(page.contains("tessera-document") && page.contains("&lt;/script&gt;"));
        let json = page.split("id=\"tessera-document\">").nth(1).unwrap().split("</script>").next().unwrap();
        let back: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(back["name"], "</script><b>");
    }
}
