//! ANSI styling decided per call, never by a process-wide switch.
//!
//! `colored`'s `Display` consults a global override and whether *stdout* is a terminal. That is
//! the wrong question for a renderer that returns a `String` (tests, files, a pager, a CI log):
//! the caller already knows whether it wants color. So the renderers borrow only `colored`'s
//! [`Color`] codes and write the escapes here; with color off the text comes back untouched,
//! without a single `\x1b`.

use colored::Color;

/// A foreground color plus bold/dim: all the styling the reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Style {
    fg: Option<Color>,
    bold: bool,
    dim: bool,
}

impl Style {
    /// No styling at all.
    pub(crate) const PLAIN: Style = Style {
        fg: None,
        bold: false,
        dim: false,
    };

    /// Text in `color`.
    pub(crate) const fn fg(color: Color) -> Style {
        Style {
            fg: Some(color),
            bold: false,
            dim: false,
        }
    }

    /// The same style, bold.
    pub(crate) const fn bold(self) -> Style {
        Style { bold: true, ..self }
    }

    /// The same style, dimmed.
    pub(crate) const fn dim(self) -> Style {
        Style { dim: true, ..self }
    }
}

/// Applies [`Style`]s when enabled and does nothing otherwise.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Painter {
    enabled: bool,
}

impl Painter {
    /// A painter that emits escapes only when `enabled`.
    pub(crate) fn new(enabled: bool) -> Painter {
        Painter { enabled }
    }

    /// `text` wrapped in the escapes for `style`, or `text` itself when color is off.
    ///
    /// Multi-line text is styled line by line so that pagers which reset attributes at each
    /// newline (`less -R`) still show every line styled.
    pub(crate) fn paint(&self, text: &str, style: Style) -> String {
        if !self.enabled || text.is_empty() || style == Style::PLAIN {
            return text.to_string();
        }
        let mut codes: Vec<String> = Vec::new();
        if style.bold {
            codes.push("1".into());
        }
        if style.dim {
            codes.push("2".into());
        }
        if let Some(fg) = style.fg {
            codes.push(fg.to_fg_str().into_owned());
        }
        let open = format!("\x1b[{}m", codes.join(";"));
        text.split('\n')
            .map(|line| {
                if line.is_empty() {
                    String::new()
                } else {
                    format!("{open}{line}\x1b[0m")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_painter_returns_text_verbatim() {
        let p = Painter::new(false);
        assert_eq!(p.paint("FAIL", Style::fg(Color::Red).bold()), "FAIL");
    }

    #[test]
    fn enabled_painter_wraps_each_line() {
        let p = Painter::new(true);
        let s = p.paint("a\nb", Style::fg(Color::Red).bold());
        assert_eq!(s, "\x1b[1;31ma\x1b[0m\n\x1b[1;31mb\x1b[0m");
        assert_eq!(p.paint("x", Style::PLAIN), "x");
    }
}
