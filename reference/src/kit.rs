//! What every kit reference shares: a [`Probe`] told of each entry into and exit from a
//! counted function, so one recursive algorithm serves both the grader (a [`Tally`] counts,
//! measures depth and keeps the first steps) and the cdylib (its probe reports to the
//! `-finstrument-functions` protocol, as a student's build does).

use std::collections::BTreeMap;
use std::fmt;

/// Told of every counted call.
pub trait Probe {
    /// `function` is entered with arguments shown as `arg`.
    fn enter(&mut self, function: &'static str, arg: fmt::Arguments<'_>);
    /// `function` returns.
    fn exit(&mut self, function: &'static str);
}

/// One step of a trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The function entered.
    pub function: &'static str,
    /// Its arguments, as shown to students.
    pub arg: String,
    /// Depth of all counted functions together, after entering.
    pub depth: u32,
}

/// Counts, depths and the first steps of one reference run.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Calls per function.
    pub calls: BTreeMap<&'static str, u64>,
    /// Deepest nesting per function.
    pub max_depth: BTreeMap<&'static str, u64>,
    depth: BTreeMap<&'static str, u64>,
    total: u32,
    /// The first steps.
    pub trace: Vec<Step>,
    /// How many steps are kept.
    pub keep: usize,
}

impl Tally {
    /// A tally keeping the first `keep` steps.
    pub fn new(keep: usize) -> Tally {
        Tally {
            keep,
            ..Tally::default()
        }
    }

    /// Calls of `function`.
    pub fn calls_of(&self, function: &str) -> u64 {
        self.calls.get(function).copied().unwrap_or(0)
    }
}

impl Probe for Tally {
    fn enter(&mut self, function: &'static str, arg: fmt::Arguments<'_>) {
        *self.calls.entry(function).or_default() += 1;
        let d = self.depth.entry(function).or_default();
        *d += 1;
        let d = *d;
        let m = self.max_depth.entry(function).or_default();
        *m = (*m).max(d);
        self.total += 1;
        if self.trace.len() < self.keep {
            self.trace.push(Step {
                function,
                arg: arg.to_string(),
                depth: self.total,
            });
        }
    }

    fn exit(&mut self, function: &'static str) {
        if let Some(d) = self.depth.get_mut(function) {
            *d = d.saturating_sub(1);
        }
        self.total = self.total.saturating_sub(1);
    }
}

/// A probe that sees nothing (for callers that want only the answer).
pub struct Silent;

impl Probe for Silent {
    fn enter(&mut self, _: &'static str, _: fmt::Arguments<'_>) {}
    fn exit(&mut self, _: &'static str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_counts_depth_and_keeps_the_first_steps() {
        let mut t = Tally::new(2);
        t.enter("f", format_args!("3"));
        t.enter("f", format_args!("2"));
        t.enter("g", format_args!("1"));
        t.exit("g");
        t.exit("f");
        t.exit("f");
        assert_eq!(t.calls_of("f"), 2);
        assert_eq!(t.max_depth["f"], 2);
        assert_eq!(t.max_depth["g"], 1);
        assert_eq!(t.trace.len(), 2);
        assert_eq!(t.trace[1].depth, 2);
        assert_eq!(t.trace[1].arg, "2");
    }
}
