//! Which requests come from the viewer's own page: a `Host` header naming the address it listens
//! on (so that a web page whose name was made to resolve to this machine, DNS rebinding, is
//! refused), and no `Origin` header but the viewer's own (so that no other web page the user
//! visits can drive it).
//!
//! The address is named by its port and `localhost`, a loopback address (`127.0.0.1`, `[::1]`),
//! or the address it was bound to; bound to every interface (`0.0.0.0`, `[::]`), by any address.
//! A name other than `localhost` is never taken: only a name can be made to point elsewhere.

use std::net::{IpAddr, SocketAddr};

/// The address a viewer answers to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Own {
    addr: SocketAddr,
}

impl Own {
    /// A viewer listening on `addr`.
    pub fn new(addr: SocketAddr) -> Own {
        Own { addr }
    }

    /// Why a request with these `Host` and `Origin` headers is refused, if it is.
    pub fn refusal(&self, host: Option<&str>, origin: Option<&str>) -> Option<&'static str> {
        // Browsers always send a Host; a program that sends none cannot be a rebound page.
        if host.is_some_and(|h| !self.names(h)) {
            return Some("forbidden: the Host header does not name this viewer");
        }
        if origin.is_some_and(|o| !o.strip_prefix("http://").is_some_and(|h| self.names(h))) {
            return Some("forbidden: a request from another origin");
        }
        None
    }

    /// Whether `authority` (`name[:port]`) names this viewer.
    fn names(&self, authority: &str) -> bool {
        let (name, port) = match authority.rsplit_once(':') {
            // A bare IPv6 address in brackets has colons inside: the port follows the `]`.
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (authority, Some(80)),
        };
        if port != Some(self.addr.port()) {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let bare = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
        // An IPv6 address is written in brackets, an IPv4 one without.
        let bracketed = bare.len() != name.len();
        match bare.parse::<IpAddr>() {
            Ok(ip) if ip.is_ipv6() == bracketed => {
                ip.is_loopback() || ip == self.addr.ip() || self.addr.ip().is_unspecified()
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(addr: &str) -> Own {
        Own::new(addr.parse().unwrap())
    }

    #[test]
    fn hosts_naming_the_viewer_are_taken() {
        let o = own("127.0.0.1:8080");
        for host in ["127.0.0.1:8080", "localhost:8080", "LocalHost:8080", "[::1]:8080", "127.0.0.2:8080"] {
            assert!(o.names(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "localhost",
            "10.0.0.1:8080",
            "::1:8080",
            "[127.0.0.1]:8080",
            "localhost.evil.example:8080",
            "127.0.0.1:8080:8080",
            "",
        ] {
            assert!(!o.names(host), "{host}");
        }
        assert!(own("127.0.0.1:80").names("localhost"), "port 80 goes unsaid");
    }

    #[test]
    fn an_address_bound_explicitly_is_taken_too() {
        let o = own("192.168.1.5:9000");
        assert!(o.names("192.168.1.5:9000") && o.names("localhost:9000"));
        assert!(!o.names("192.168.1.6:9000") && !o.names("viewer.lan:9000"));
        let every = own("0.0.0.0:9000");
        assert!(every.names("192.168.1.6:9000") && every.names("[fe80::1]:9000"));
        assert!(!every.names("viewer.lan:9000"), "never a name but localhost");
        let v6 = own("[::1]:9000");
        assert!(v6.names("[::1]:9000") && v6.names("127.0.0.1:9000"));
    }

    #[test]
    fn origins_and_hosts_are_checked() {
        let o = own("127.0.0.1:8080");
        assert_eq!(o.refusal(Some("127.0.0.1:8080"), None), None, "no Origin: curl");
        assert_eq!(o.refusal(None, None), None);
        assert_eq!(o.refusal(Some("127.0.0.1:8080"), Some("http://127.0.0.1:8080")), None);
        assert_eq!(o.refusal(Some("localhost:8080"), Some("http://localhost:8080")), None);
        let foreign_host = o.refusal(Some("rebound.example:8080"), None);
        assert!(foreign_host.is_some_and(|why| why.contains("Host")));
        for origin in ["http://evil.example", "https://127.0.0.1:8080", "null", "http://127.0.0.1:8081", ""] {
            let why = o.refusal(Some("127.0.0.1:8080"), Some(origin));
            assert!(why.is_some_and(|w| w.contains("another origin")), "{origin}");
        }
    }
}
