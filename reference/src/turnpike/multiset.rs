//! The distance set as a multiset with logarithmic operations: a balanced tree of counts.
//!
//! Weiss suggests keeping D "as a balanced binary search (or splay) tree"; a `BTreeMap` from
//! distance to number of copies is that tree, with `find_max` at its last key. Every
//! operation can be logged as (operation, argument, result), the record labgrade's world
//! keeps of a submission, so the reference's own order of operations can be checked too.

use std::collections::BTreeMap;

use super::DistanceSet;

/// An operation on D, as the C wrappers of `turnpike.h` name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Op {
    /// `find_max(D)`.
    FindMax = 0,
    /// `delete_max(D)`.
    DeleteMax = 1,
    /// `contains(d, D)`.
    Contains = 2,
    /// `delete_dist(d, D)` (the text's `delete`).
    Delete = 3,
    /// `insert_dist(d, D)` (the text's `insert`).
    Insert = 4,
    /// `is_empty(D)`.
    IsEmpty = 5,
    /// `dist_size(D)`.
    Size = 6,
    /// `dist_count(d, D)`: how many copies of d are in D.
    Count = 7,
}

impl Op {
    /// Every operation, by code.
    pub const ALL: [Op; 8] = [
        Op::FindMax,
        Op::DeleteMax,
        Op::Contains,
        Op::Delete,
        Op::Insert,
        Op::IsEmpty,
        Op::Size,
        Op::Count,
    ];

    /// The C wrapper's name.
    pub fn name(self) -> &'static str {
        match self {
            Op::FindMax => "find_max",
            Op::DeleteMax => "delete_max",
            Op::Contains => "contains",
            Op::Delete => "delete_dist",
            Op::Insert => "insert_dist",
            Op::IsEmpty => "is_empty",
            Op::Size => "dist_size",
            Op::Count => "dist_count",
        }
    }

    /// True for the operations that take a distance argument.
    pub fn takes_distance(self) -> bool {
        matches!(self, Op::Contains | Op::Delete | Op::Insert | Op::Count)
    }

    /// The operation with this code.
    pub fn from_code(code: u8) -> Option<Op> {
        Op::ALL.get(code as usize).copied()
    }
}

/// A multiset of distances.
#[derive(Debug, Clone, Default)]
pub struct Multiset {
    counts: BTreeMap<i32, u32>,
    len: usize,
    log: Option<Vec<(Op, i32, i32)>>,
}

impl Multiset {
    /// A multiset holding `ds`.
    pub fn from_distances(ds: &[i32]) -> Multiset {
        let mut m = Multiset::default();
        for &d in ds {
            *m.counts.entry(d).or_insert(0) += 1;
        }
        m.len = ds.len();
        m
    }

    /// Number of distances, copies included.
    pub fn size(&self) -> usize {
        self.len
    }

    /// Copies of `d`.
    pub fn count(&self, d: i32) -> u32 {
        self.counts.get(&d).copied().unwrap_or(0)
    }

    /// The contents, ascending, copies repeated.
    pub fn sorted(&self) -> Vec<i32> {
        self.counts
            .iter()
            .flat_map(|(&d, &c)| std::iter::repeat_n(d, c as usize))
            .collect()
    }

    /// Starts recording every operation.
    pub fn start_log(&mut self) {
        self.log = Some(Vec::new());
    }

    /// The operations recorded since [`Multiset::start_log`]: (operation, argument, result).
    pub fn take_log(&mut self) -> Vec<(Op, i32, i32)> {
        self.log.take().unwrap_or_default()
    }

    fn record(&mut self, op: Op, arg: i32, result: i32) {
        if let Some(log) = &mut self.log {
            log.push((op, arg, result));
        }
    }

    fn remove_one(&mut self, d: i32) -> bool {
        match self.counts.get_mut(&d) {
            Some(c) if *c > 1 => *c -= 1,
            Some(_) => {
                self.counts.remove(&d);
            }
            None => return false,
        }
        self.len -= 1;
        true
    }
}

impl DistanceSet for Multiset {
    fn find_max(&mut self) -> i32 {
        let m = self.counts.last_key_value().map_or(0, |(&d, _)| d);
        self.record(Op::FindMax, 0, m);
        m
    }

    fn delete_max(&mut self) -> i32 {
        let m = self.counts.last_key_value().map_or(0, |(&d, _)| d);
        self.remove_one(m);
        self.record(Op::DeleteMax, 0, m);
        m
    }

    fn contains(&mut self, d: i32) -> bool {
        let has = self.counts.contains_key(&d);
        self.record(Op::Contains, d, has as i32);
        has
    }

    fn delete(&mut self, d: i32) {
        let removed = self.remove_one(d);
        self.record(Op::Delete, d, removed as i32);
    }

    fn insert(&mut self, d: i32) {
        *self.counts.entry(d).or_insert(0) += 1;
        self.len += 1;
        self.record(Op::Insert, d, 0);
    }

    fn is_empty(&mut self) -> bool {
        let empty = self.len == 0;
        self.record(Op::IsEmpty, 0, empty as i32);
        empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_copies() {
        let mut m = Multiset::from_distances(&[3, 1, 3, 2]);
        assert_eq!(m.size(), 4);
        assert_eq!(m.count(3), 2);
        assert_eq!(m.find_max(), 3);
        assert_eq!(m.delete_max(), 3);
        assert!(m.contains(3));
        m.delete(3);
        assert!(!m.contains(3));
        assert_eq!(m.find_max(), 2);
        m.insert(3);
        m.insert(3);
        assert_eq!(m.sorted(), vec![1, 2, 3, 3]);
        m.delete(7);
        assert_eq!(
            m.size(),
            4,
            "deleting a distance that is not there changes nothing"
        );
        for d in [1, 2, 3, 3] {
            m.delete(d);
        }
        assert!(m.is_empty());
    }

    #[test]
    fn logs_operations() {
        let mut m = Multiset::from_distances(&[1, 2]);
        m.start_log();
        m.find_max();
        m.contains(5);
        m.delete(1);
        m.is_empty();
        assert_eq!(
            m.take_log(),
            vec![
                (Op::FindMax, 0, 2),
                (Op::Contains, 5, 0),
                (Op::Delete, 1, 1),
                (Op::IsEmpty, 0, 0)
            ]
        );
        assert_eq!(Op::from_code(3), Some(Op::Delete));
        assert_eq!(Op::Delete.name(), "delete_dist");
    }
}
