//! Helpers for the games' tests of their JSON formats.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Reads a JSON document as `T`, and checks that `T` writes it out as read (the same fields, the
/// same values: floats compare as JSON reads them). Panics, naming the document, if either
/// fails: it is meant for tests.
///
/// ```
/// use tessera_core::runtime::StopReason;
/// use tessera_core::testing::reads_back;
///
/// assert_eq!(reads_back::<StopReason>("\"time\""), StopReason::Time);
/// ```
pub fn reads_back<T: Serialize + DeserializeOwned>(json: &str) -> T {
    let read: T = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let written = serde_json::to_value(&read).unwrap_or_else(|e| panic!("{e}: {json}"));
    let expected: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(written, expected, "{json}");
    read
}
