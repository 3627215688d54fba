//! The report's two pictures, as inline SVG: the score histogram and the small bar drawn
//! beside a pass rate. Sizes and colors are attributes and CSS classes (the page's policy
//! allows no inline `style`), and every number a picture shows is also written as text in
//! it or beside it, so nothing is lost to a reader who cannot see the picture.

use maud::{html, Markup};

/// The histogram's bins: ten of ten points each (`0-9` ... `90-99`) and `100` alone, so a
/// class where many have full marks shows it.
pub(crate) const BINS: usize = 11;

/// The bin of a percentage (clamped to 0..=100).
pub(crate) fn bin_of(percent: f64) -> usize {
    if percent >= 100.0 - 1e-9 {
        BINS - 1
    } else {
        ((percent.max(0.0) / 10.0).floor() as usize).min(BINS - 2)
    }
}

/// The label of bin `i`: `0-9`, ..., `90-99`, `100`.
pub(crate) fn bin_label(i: usize) -> String {
    if i == BINS - 1 {
        "100".to_string()
    } else {
        format!("{}-{}", i * 10, i * 10 + 9)
    }
}

/// A bar chart of how many submissions scored in each bin, the count above each bar.
pub(crate) fn histogram(counts: &[usize; BINS]) -> Markup {
    const BAR: usize = 44;
    const GAP: usize = 8;
    const PLOT: usize = 150;
    const TOP: usize = 18;
    let width = BINS * (BAR + GAP) + GAP;
    let height = TOP + PLOT + 34;
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    let base = TOP + PLOT;
    html! {
        svg.histogram viewBox={"0 0 " (width) " " (height)} width=(width) height=(height)
            role="img" aria-labelledby="histogram-title" {
            title id="histogram-title" { "Submissions per score percentage" }
            line.axis x1="0" y1=(base) x2=(width) y2=(base) {}
            @for (i, &n) in counts.iter().enumerate() {
                @let x = GAP + i * (BAR + GAP);
                @let h = n * PLOT / most;
                @let label = bin_label(i);
                g.bin {
                    title { (label) "%: " (n) " submission" @if n != 1 { "s" } }
                    rect.bar x=(x) y=(base - h) width=(BAR) height=(h) {}
                    text.count x=(x + BAR / 2) y=(base - h - 4) text-anchor="middle" { (n) }
                    text.label x=(x + BAR / 2) y=(base + 16) text-anchor="middle" { (label) }
                }
            }
            text.label x=(width / 2) y=(base + 31) text-anchor="middle" {
                "score (% of the points available)"
            }
        }
    }
}

/// A small horizontal bar, filled to `fraction` (0 to 1); `class` colors the fill.
pub(crate) fn meter(fraction: f64, class: &str) -> Markup {
    const WIDTH: f64 = 120.0;
    let fill = (fraction.clamp(0.0, 1.0) * WIDTH).round();
    html! {
        svg.meter width="120" height="10" aria-hidden="true" {
            rect.track width="120" height="10" {}
            rect class=(class) width=(fill) height="10" {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_marks_have_a_bin_of_their_own() {
        assert_eq!(bin_of(0.0), 0);
        assert_eq!(bin_of(9.99), 0);
        assert_eq!(bin_of(10.0), 1);
        assert_eq!(bin_of(99.9), 9);
        assert_eq!(bin_of(100.0), 10);
        assert_eq!(bin_of(-5.0), 0);
        assert_eq!(bin_label(9), "90-99");
        assert_eq!(bin_label(10), "100");
    }

    #[test]
    fn the_histogram_writes_every_count() {
        let mut counts = [0; BINS];
        counts[6] = 3;
        counts[10] = 1;
        let svg = histogram(&counts).into_string();
        assert!(
            svg.contains("<title>60-69%: 3 submissions</title>"),
            "{svg}"
        );
        assert!(svg.contains("<title>100%: 1 submission</title>"));
        assert_eq!(svg.matches("<rect class=\"bar\"").count(), BINS);
        assert!(!svg.contains("style="));
    }

    #[test]
    fn a_meter_is_filled_to_its_fraction() {
        let svg = meter(0.5, "fill").into_string();
        assert!(
            svg.contains("<rect class=\"fill\" width=\"60\" height=\"10\"></rect>"),
            "{svg}"
        );
    }
}
