//! Student text made inert: every string a student controls (a submission's name, what its
//! program printed, a message quoting it, compiler output about its code) passes through
//! [`text`] or [`attr`] before it reaches the page, and the page's Content-Security-Policy
//! ([`csp_hash`]) lets only labgrade's own style and script run, so a string that somehow
//! escaped escaping would still do nothing.

use sha2::{Digest, Sha256};

/// `s` as HTML text content: `&`, `<` and `>` escaped, and control characters other than
/// newline and tab shown as `\u{..}` so a terminal escape sequence prints as what it is.
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `s` inside a double-quoted attribute value: [`text`], and `"` and `'` escaped too.
pub(crate) fn attr(s: &str) -> String {
    text(s).replace('"', "&quot;").replace('\'', "&#39;")
}

/// `'sha256-...'`: the CSP source that allows exactly this inline `<style>` or `<script>`.
pub(crate) fn csp_hash(content: &str) -> String {
    format!("'sha256-{}'", base64(&Sha256::digest(content.as_bytes())))
}

/// Standard base64 with padding (what CSP hashes are written in).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_control_characters_are_inert() {
        assert_eq!(
            text("<script>alert(1)</script> & \u{1b}[31m"),
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\u{1b}[31m"
        );
        assert_eq!(attr("a\"b'c<"), "a&quot;b&#39;c&lt;");
        assert_eq!(text("line\n\tnext"), "line\n\tnext");
    }

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        // The hash every CSP tutorial shows for `alert('Hello, world.');`.
        assert_eq!(
            csp_hash("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
    }
}
