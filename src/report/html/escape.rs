//! Student text made inert. The page is written with maud, whose `html!` escapes every
//! string it is given (`&`, `<`, `>`, `"`): a student's name, output or diagnostics can never
//! become markup. [`inert`] also shows control characters as `\u{..}`, so a terminal escape
//! sequence prints as what it is, and the page's Content-Security-Policy ([`csp_hash`]) lets
//! only labgrade's own style and script run, so a string that somehow escaped escaping would
//! still do nothing.

use base64::Engine;
use sha2::{Digest, Sha256};

/// `s` with control characters other than newline and tab shown as `\u{..}` (maud escapes
/// the markup characters when it writes it).
pub(crate) fn inert(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `'sha256-...'`: the CSP source that allows exactly this inline `<style>` or `<script>`.
pub(crate) fn csp_hash(content: &str) -> String {
    let digest = Sha256::digest(content.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown() {
        assert_eq!(inert("a \u{1b}[31m"), "a \\u{1b}[31m");
        assert_eq!(inert("line\n\tnext"), "line\n\tnext");
        let page = maud::html! { p { (inert("<script>alert(1)</script> & \u{1b}")) } };
        assert_eq!(
            page.into_string(),
            "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\u{1b}</p>"
        );
    }

    #[test]
    fn the_hash_is_the_one_every_csp_tutorial_shows() {
        // For `alert('Hello, world.');`.
        assert_eq!(
            csp_hash("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
    }
}
