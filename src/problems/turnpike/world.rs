//! labgrade's distance set: the world a turnpike submission searches, instrumented.
//!
//! Weiss' `turnpike` and `place` only ever touch D through find_max, delete_max, contains,
//! delete and insert (plus "D is empty"). labgrade is that D: the sandboxed child builds a
//! [`World`] and hands the student's `turnpike` a `dist_set` whose ops table points at the
//! `extern "C"` functions below. Every operation is answered from a multiset with
//! logarithmic operations (a `BTreeMap` of counts) and recorded:
//!
//! - counts per operation and the first [`RAW_KEEP`] operations as (operation, argument,
//!   result);
//! - misuse, reported and survived, never a crash: `find_max`/`delete_max` on an empty set
//!   (they answer 0), deleting a distance that is not there (nothing happens), a negative
//!   distance (a missing absolute value);
//! - the **search**, as a sequence of events that does not depend on how a submission
//!   checks feasibility. Consecutive deletions form a *group*; a group still open (no
//!   find_max, is_empty or dist_size since it began) that is then put back is a tentative
//!   check rolled back and leaves no trace; a group closed by the next `place` call's first
//!   query is a committed placement (a `P` event, with the multiset it removed). Insertions
//!   are matched against the newest group: an *undo block* restores one group (as many
//!   insertions as it removed; a `U` event with what was put back), and every undo block of
//!   a committed placement other than the driver's is a **backtrack**. An undo block that
//!   puts back something else than its group removed is recorded with the difference.
//!
//! The reference runs on this same world in the grader (the [`DistanceSet`] impl), so a
//! submission's record and the expectation are made by the same code.

use std::collections::BTreeMap;
use std::ffi::{c_int, c_uint, c_void};

use labgrade_reference::turnpike::ffi::{DistOps, DistSet};
use labgrade_reference::turnpike::{DistanceSet, Op};
use serde_json::{json, Value};

/// Operations kept in order, for messages.
pub const RAW_KEEP: usize = 2048;
/// Events kept one by one (the rest are counted and folded into the digest).
pub const EVENTS_KEEP: usize = 20_000;
/// Events whose multiset is shipped in full (when small): the first ones.
pub const ITEMS_EVENTS: usize = 512;
/// Largest multiset shipped in full.
pub const ITEMS_MAX: usize = 64;
/// Misuse and undo notes kept.
pub const NOTES_KEEP: usize = 16;
/// Entries of D shown in a summary (distance, copies).
pub const SHOW_ENTRIES: usize = 20;

/// The splitmix64 finaliser.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A hash of a multiset of distances (any order).
pub fn multiset_hash(items: &[i32]) -> u64 {
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    let mut h = mix(0x243f_6a88_85a3_08d3 ^ sorted.len() as u64);
    for v in sorted {
        h = mix(h
            .wrapping_add(v as u32 as u64)
            .wrapping_add(0x9e37_79b9_7f4a_7c15));
    }
    h
}

/// A hash as shipped in the summary.
pub fn hash_hex(h: u64) -> String {
    format!("{h:016x}")
}

/// An open or committed placement: distances deleted together.
#[derive(Debug)]
struct Group {
    id: u64,
    /// Operation index of its first deletion.
    first_op: u64,
    /// Operation index of its undo's first insertion.
    undo_op: u64,
    /// The last find_max answer before it.
    dmax: Option<i32>,
    removed: Vec<i32>,
    /// Removed and not yet put back.
    remaining: Vec<i32>,
    /// Put back by its undo (matching or not).
    restored: Vec<i32>,
    /// Put back by its undo but never removed by it.
    extra: Vec<i32>,
    /// A `place` call began after it (it is a committed placement).
    closed: bool,
    /// Its undo has begun.
    touched: bool,
}

/// One event of the search record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// `P` (a committed placement) or `U` (an undo block).
    pub kind: char,
    /// Distances removed or put back.
    pub len: usize,
    /// [`multiset_hash`] of them.
    pub hash: u64,
    /// Index (from 0) of the operation where it begins.
    pub op: u64,
    /// The find_max answer the placement followed.
    pub dmax: Option<i32>,
    /// The distances, ascending, for the first small events.
    pub items: Option<Vec<i32>>,
}

impl Event {
    /// The shipped form: `[kind, len, hash, op, dmax, items]`.
    pub fn to_json(&self) -> Value {
        json!([
            self.kind.to_string(),
            self.len,
            hash_hex(self.hash),
            self.op,
            self.dmax,
            self.items
        ])
    }

    /// Reads the shipped form.
    pub fn from_json(v: &Value) -> Option<Event> {
        let a = v.as_array()?;
        Some(Event {
            kind: a.first()?.as_str()?.chars().next()?,
            len: a.get(1)?.as_u64()? as usize,
            hash: u64::from_str_radix(a.get(2)?.as_str()?, 16).ok()?,
            op: a.get(3)?.as_u64()?,
            dmax: a.get(4).and_then(Value::as_i64).map(|d| d as i32),
            items: a.get(5).and_then(Value::as_array).map(|items| {
                items
                    .iter()
                    .filter_map(|x| x.as_i64().map(|d| d as i32))
                    .collect()
            }),
        })
    }

    /// True when two events record the same change.
    pub fn same(&self, other: &Event) -> bool {
        self.kind == other.kind && self.len == other.len && self.hash == other.hash
    }
}

/// The instrumented distance set.
#[derive(Debug)]
pub struct World {
    set: BTreeMap<i32, u32>,
    len: u64,
    initial: Vec<i32>,
    counts: [u64; 8],
    ops: u64,
    raw: Vec<[i64; 3]>,
    misuse_total: u64,
    misuse: Vec<Value>,
    groups: Vec<Group>,
    next_group: u64,
    events: Vec<Event>,
    events_total: u64,
    digest: u64,
    backtracks: u64,
    undo_errors_total: u64,
    undo_errors: Vec<Value>,
    last_max: Option<i32>,
    in_run: bool,
    /// The maximum a `find_max` just answered while the driver's group was open: if the
    /// next operation deletes exactly it, the pair is the driver's `delete_max` written as
    /// `find_max` then `delete_dist`, and the group stays open.
    pending_max: Option<i32>,
}

fn sorted(v: &[i32]) -> Vec<i32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

/// (distance, copies) pairs, ascending.
type Entries = Vec<(i32, u64)>;

/// (distance, copies) of a sorted list.
fn runs(sorted: &[i32]) -> impl Iterator<Item = (i32, u32)> + '_ {
    sorted
        .chunk_by(|a, b| a == b)
        .map(|c| (c[0], c.len() as u32))
}

fn head(v: &[i32], k: usize) -> Vec<i32> {
    sorted(v).into_iter().take(k).collect()
}

impl World {
    /// A world holding `distances`.
    pub fn new(distances: &[i32]) -> World {
        let initial = sorted(distances);
        // Built in bulk from sorted (distance, copies) runs.
        let set: BTreeMap<i32, u32> = runs(&initial).collect();
        World {
            set,
            len: distances.len() as u64,
            initial,
            counts: [0; 8],
            ops: 0,
            raw: Vec::new(),
            misuse_total: 0,
            misuse: Vec::new(),
            groups: Vec::new(),
            next_group: 0,
            events: Vec::new(),
            events_total: 0,
            digest: 0,
            backtracks: 0,
            undo_errors_total: 0,
            undo_errors: Vec::new(),
            last_max: None,
            in_run: false,
            pending_max: None,
        }
    }

    /// Distances now in D, copies included.
    pub fn size(&self) -> u64 {
        self.len
    }

    /// Backtracks so far.
    pub fn backtracks(&self) -> u64 {
        self.backtracks
    }

    /// The events kept so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    fn begin(&mut self, op: Op) -> u64 {
        self.begin_with(op, None)
    }

    /// Starts operation `op` (with its distance argument, for a deletion). A query of D
    /// closes the open group (the next `place` call has begun), except a `find_max` that the
    /// driver follows with the deletion of that very maximum: `x[n] = find_max(D);
    /// delete_dist(x[n], D)` is the text's `x[n] = delete_max(D)`.
    fn begin_with(&mut self, op: Op, arg: Option<i32>) -> u64 {
        if op != Op::Insert && self.in_run {
            self.end_run();
        }
        if let Some(m) = self.pending_max.take() {
            if !(op == Op::Delete && arg == Some(m)) {
                self.close_top();
            }
        }
        match op {
            Op::FindMax if self.driver_group_open() && self.max().is_some() => {
                self.pending_max = self.max();
            }
            Op::FindMax | Op::IsEmpty | Op::Size => self.close_top(),
            _ => {}
        }
        self.counts[op as usize] += 1;
        let i = self.ops;
        self.ops += 1;
        i
    }

    /// True while the first group (the driver's deletions, before the first `place` call
    /// queries D) is still open.
    fn driver_group_open(&self) -> bool {
        matches!(self.groups.last(), Some(g) if g.id == 0 && !g.closed && !g.touched)
    }

    fn log(&mut self, op: Op, arg: i32, result: i64) {
        if self.raw.len() < RAW_KEEP {
            self.raw.push([op as i64, i64::from(arg), result]);
        }
    }

    fn misuse(&mut self, op: u64, text: String) {
        self.misuse_total += 1;
        if self.misuse.len() < NOTES_KEEP {
            self.misuse.push(json!({ "op": op + 1, "text": text }));
        }
    }

    fn negative(&mut self, i: u64, op: Op, d: i32) {
        if d < 0 {
            self.misuse(
                i,
                format!(
                    "{}({d}): a distance is never negative (a missing absolute value, \
                     |x[j] - dmax|?)",
                    op.name()
                ),
            );
        }
    }

    fn remove_one(&mut self, d: i32) -> bool {
        match self.set.get_mut(&d) {
            Some(c) if *c > 1 => *c -= 1,
            Some(_) => {
                self.set.remove(&d);
            }
            None => return false,
        }
        self.len -= 1;
        true
    }

    fn max(&self) -> Option<i32> {
        self.set.last_key_value().map(|(&d, _)| d)
    }

    /// A deletion that happened: it joins the open group or begins one.
    fn removed(&mut self, i: u64, d: i32) {
        match self.groups.last_mut() {
            Some(g) if !g.closed && !g.touched => {
                g.removed.push(d);
                g.remaining.push(d);
            }
            _ => {
                self.groups.push(Group {
                    id: self.next_group,
                    first_op: i,
                    undo_op: 0,
                    dmax: self.last_max,
                    removed: vec![d],
                    remaining: vec![d],
                    restored: Vec::new(),
                    extra: Vec::new(),
                    closed: false,
                    touched: false,
                });
                self.next_group += 1;
            }
        }
    }

    fn emit(&mut self, kind: char, items: &[i32], op: u64, dmax: Option<i32>) {
        let hash = multiset_hash(items);
        self.digest = mix(self.digest ^ mix(((kind as u64) << 56) ^ items.len() as u64) ^ hash);
        let index = self.events_total as usize;
        self.events_total += 1;
        if self.events.len() < EVENTS_KEEP {
            self.events.push(Event {
                kind,
                len: items.len(),
                hash,
                op,
                dmax,
                items: (index < ITEMS_EVENTS && items.len() <= ITEMS_MAX).then(|| sorted(items)),
            });
        }
    }

    fn close_top(&mut self) {
        let Some(g) = self.groups.last_mut() else {
            return;
        };
        if g.closed || g.touched {
            return;
        }
        g.closed = true;
        let (items, op, dmax) = (g.removed.clone(), g.first_op, g.dmax);
        self.emit('P', &items, op, dmax);
    }

    /// An insertion: part of the undo of the newest group.
    fn restore(&mut self, i: u64, d: i32) {
        let Some(g) = self.groups.last_mut() else {
            self.undo_errors_total += 1;
            if self.undo_errors.len() < NOTES_KEEP {
                self.undo_errors.push(json!({
                    "op": i + 1,
                    "kind": "unmatched",
                    "text": format!("insert_dist({d}) puts back a distance that no placement removed"),
                }));
            }
            return;
        };
        if !g.touched {
            g.touched = true;
            g.undo_op = i;
            if g.closed && g.id != 0 {
                self.backtracks += 1;
            }
        }
        if let Some(pos) = g.remaining.iter().rposition(|&v| v == d) {
            g.remaining.swap_remove(pos);
        } else {
            g.extra.push(d);
        }
        g.restored.push(d);
        if g.restored.len() >= g.removed.len() {
            if let Some(g) = self.groups.pop() {
                self.finish_group(g);
            }
        }
    }

    fn end_run(&mut self) {
        self.in_run = false;
        if self.groups.last().is_some_and(|g| g.touched) {
            if let Some(g) = self.groups.pop() {
                self.finish_group(g);
            }
        }
    }

    fn finish_group(&mut self, g: Group) {
        if !g.remaining.is_empty() || !g.extra.is_empty() {
            self.undo_errors_total += 1;
            if self.undo_errors.len() < NOTES_KEEP {
                self.undo_errors.push(json!({
                    "op": g.first_op + 1,
                    "undo_op": g.undo_op + 1,
                    "kind": if g.closed { "undo" } else { "rollback" },
                    "removed": head(&g.removed, 32),
                    "restored": head(&g.restored, 32),
                    "left_out": head(&g.remaining, 32),
                    "extra": head(&g.extra, 32),
                }));
            }
        }
        if g.closed {
            self.emit('U', &g.restored, g.undo_op, g.dmax);
        }
    }

    /// `find_max(D)`.
    pub fn find_max(&mut self) -> i32 {
        let i = self.begin(Op::FindMax);
        let m = match self.max() {
            Some(m) => {
                self.last_max = Some(m);
                m
            }
            None => {
                self.misuse(i, "find_max on an empty D (answered 0)".into());
                0
            }
        };
        self.log(Op::FindMax, 0, i64::from(m));
        m
    }

    /// `delete_max(D)`.
    pub fn delete_max(&mut self) -> i32 {
        let i = self.begin(Op::DeleteMax);
        let m = match self.max() {
            Some(m) => {
                self.remove_one(m);
                self.removed(i, m);
                m
            }
            None => {
                self.misuse(i, "delete_max on an empty D (answered 0)".into());
                0
            }
        };
        self.log(Op::DeleteMax, 0, i64::from(m));
        m
    }

    /// `contains(d, D)`.
    pub fn contains(&mut self, d: i32) -> bool {
        let i = self.begin(Op::Contains);
        self.negative(i, Op::Contains, d);
        let has = self.set.contains_key(&d);
        self.log(Op::Contains, d, i64::from(has));
        has
    }

    /// `delete_dist(d, D)`: removes one copy.
    pub fn delete(&mut self, d: i32) {
        let i = self.begin_with(Op::Delete, Some(d));
        self.negative(i, Op::Delete, d);
        let removed = self.remove_one(d);
        if removed {
            self.removed(i, d);
        } else {
            self.misuse(
                i,
                format!("delete_dist({d}), but {d} is not in D (no copy of it is left)"),
            );
        }
        self.log(Op::Delete, d, i64::from(removed));
    }

    /// `insert_dist(d, D)`: adds one copy.
    pub fn insert(&mut self, d: i32) {
        let i = self.begin(Op::Insert);
        self.negative(i, Op::Insert, d);
        *self.set.entry(d).or_insert(0) += 1;
        self.len += 1;
        self.in_run = true;
        self.restore(i, d);
        self.log(Op::Insert, d, 0);
    }

    /// `is_empty(D)`.
    pub fn is_empty(&mut self) -> bool {
        self.begin(Op::IsEmpty);
        let empty = self.len == 0;
        self.log(Op::IsEmpty, 0, i64::from(empty));
        empty
    }

    /// `dist_count(d, D)`: copies of `d` in D. A question, like `contains`: it does not end a
    /// placement.
    pub fn dist_count(&mut self, d: i32) -> u64 {
        let i = self.begin(Op::Count);
        self.negative(i, Op::Count, d);
        let n = u64::from(self.set.get(&d).copied().unwrap_or(0));
        self.log(Op::Count, d, n as i64);
        n
    }

    /// `dist_size(D)`.
    pub fn dist_size(&mut self) -> u64 {
        self.begin(Op::Size);
        self.log(Op::Size, 0, self.len as i64);
        self.len
    }

    /// Ends the record after the call returned: a pending undo block ends, and a placement
    /// still open (nothing queried D after it) counts as committed.
    pub fn finish(&mut self) {
        if self.pending_max.take().is_some() {
            self.close_top();
        }
        if self.in_run {
            self.end_run();
        }
        self.close_top();
    }

    /// D now against D as given: (missing, extra) as (distance, copies), ascending.
    fn difference(&self) -> (Entries, Entries) {
        let mut missing = Vec::new();
        let mut extra = Vec::new();
        let mut given = runs(&self.initial).peekable();
        let mut now = self.set.iter().map(|(&d, &c)| (d, c)).peekable();
        loop {
            match (given.peek().copied(), now.peek().copied()) {
                (None, None) => break,
                (Some((d, g)), Some((e, c))) if d == e => {
                    if c < g {
                        missing.push((d, u64::from(g - c)));
                    } else if c > g {
                        extra.push((d, u64::from(c - g)));
                    }
                    given.next();
                    now.next();
                }
                (Some((d, g)), Some((e, _))) if d < e => {
                    missing.push((d, u64::from(g)));
                    given.next();
                }
                (Some((d, g)), None) => {
                    missing.push((d, u64::from(g)));
                    given.next();
                }
                (_, Some((e, c))) => {
                    extra.push((e, u64::from(c)));
                    now.next();
                }
            }
        }
        (missing, extra)
    }

    /// The record of one run, as the child ships it and the grader compares it.
    pub fn summary(
        &self,
        result: c_int,
        points: Option<&[i32]>,
        wrote_past: &[(usize, i32)],
    ) -> Value {
        let (missing, extra) = self.difference();
        let total = |v: &[(i32, u64)]| v.iter().map(|(_, c)| c).sum::<u64>();
        let shown = |v: &[(i32, u64)]| -> Value {
            v.iter()
                .take(SHOW_ENTRIES)
                .map(|(d, c)| json!([d, c]))
                .collect()
        };
        let remaining: Value = self
            .set
            .iter()
            .take(SHOW_ENTRIES)
            .map(|(d, c)| json!([d, c]))
            .collect();
        let ops: serde_json::Map<String, Value> = Op::ALL
            .iter()
            .map(|op| (op.name().to_string(), json!(self.counts[*op as usize])))
            .collect();
        json!({
            "result": result,
            "points": points,
            "size_given": self.initial.len(),
            "size_after": self.len,
            "remaining": remaining,
            "missing": shown(&missing),
            "missing_total": total(&missing),
            "extra": shown(&extra),
            "extra_total": total(&extra),
            "ops": ops,
            "ops_total": self.ops,
            "backtracks": self.backtracks,
            "events": self.events.iter().map(Event::to_json).collect::<Vec<_>>(),
            "events_total": self.events_total,
            "digest": hash_hex(self.digest),
            "raw": self.raw,
            "misuse_total": self.misuse_total,
            "misuse": self.misuse,
            "undo_errors_total": self.undo_errors_total,
            "undo_errors": self.undo_errors,
            "wrote_past_end": wrote_past.iter().map(|(i, v)| json!([i, v])).collect::<Vec<_>>(),
        })
    }
}

impl DistanceSet for World {
    fn find_max(&mut self) -> i32 {
        World::find_max(self)
    }
    fn delete_max(&mut self) -> i32 {
        World::delete_max(self)
    }
    fn contains(&mut self, d: i32) -> bool {
        World::contains(self, d)
    }
    fn delete(&mut self, d: i32) {
        World::delete(self, d)
    }
    fn insert(&mut self, d: i32) {
        World::insert(self, d)
    }
    fn is_empty(&mut self) -> bool {
        World::is_empty(self)
    }
}

/// The world behind a `dist_set`, if the pointer is one of ours.
///
/// # Safety
///
/// `d` is null or the `dist_set` labgrade passed to the student, whose `imp` is a live
/// `World` on the student thread (the only thread that calls these functions).
unsafe fn world<'a>(d: *mut DistSet) -> Option<&'a mut World> {
    if d.is_null() {
        return None;
    }
    ((*d).imp as *mut World).as_mut()
}

unsafe extern "C" fn w_find_max(d: *mut DistSet) -> c_int {
    world(d).map_or(0, |w| w.find_max())
}

unsafe extern "C" fn w_delete_max(d: *mut DistSet) -> c_int {
    world(d).map_or(0, |w| w.delete_max())
}

unsafe extern "C" fn w_contains(d: *mut DistSet, v: c_int) -> c_int {
    world(d).map_or(0, |w| c_int::from(w.contains(v)))
}

unsafe extern "C" fn w_delete(d: *mut DistSet, v: c_int) {
    if let Some(w) = world(d) {
        w.delete(v);
    }
}

unsafe extern "C" fn w_insert(d: *mut DistSet, v: c_int) {
    if let Some(w) = world(d) {
        w.insert(v);
    }
}

unsafe extern "C" fn w_is_empty(d: *mut DistSet) -> c_int {
    world(d).map_or(1, |w| c_int::from(w.is_empty()))
}

unsafe extern "C" fn w_size(d: *mut DistSet) -> c_uint {
    world(d).map_or(0, |w| w.dist_size().min(u64::from(c_uint::MAX)) as c_uint)
}

unsafe extern "C" fn w_count(d: *mut DistSet, v: c_int) -> c_uint {
    world(d).map_or(0, |w| w.dist_count(v).min(u64::from(c_uint::MAX)) as c_uint)
}

/// The ops table every `dist_set` labgrade makes points to.
pub static OPS: DistOps = DistOps {
    find_max: w_find_max,
    delete_max: w_delete_max,
    contains: w_contains,
    delete_dist: w_delete,
    insert_dist: w_insert,
    is_empty: w_is_empty,
    size: w_size,
    count: w_count,
};

/// `int turnpike(int x[], dist_set D, unsigned int n)`.
pub type TurnpikeFn = unsafe extern "C" fn(*mut c_int, *mut DistSet, c_uint) -> c_int;

/// `int labgrade_turnpike(int x[], const int distances[], unsigned int count, unsigned int n)`:
/// the one-function adapter of a submission whose turnpike works on a distance set of its own.
pub type AdapterFn = unsafe extern "C" fn(*mut c_int, *const c_int, c_uint, c_uint) -> c_int;

/// `int turnpike(int x[], int D[], unsigned int n)`: a turnpike on a plain array of the
/// n(n-1)/2 distances (its `n` may be an `int`: it travels in a register either way).
pub type IntArrayFn = unsafe extern "C" fn(*mut c_int, *mut c_int, c_uint) -> c_int;

/// What x\[\] holds before the call (the text: x "need not be initialized").
pub const POISON: c_int = 0x5eed_bad0;
/// Guard ints after x\[n\], to catch writes past the end.
pub const GUARD: usize = 4;
const GUARD_VALUE: c_int = 0x0bad_cafe;

/// Calls a submission's `turnpike` on `distances` (n points) through the world, and returns
/// the record (runs on the student thread inside the sandboxed child).
///
/// # Safety
///
/// `f` must be a function with `turnpike`'s C signature.
pub unsafe fn run_submission(f: TurnpikeFn, n: usize, distances: &[i32]) -> Value {
    let mut w = World::new(distances);
    let mut x: Vec<c_int> = vec![POISON; n + 1 + GUARD];
    for g in &mut x[n + 1..] {
        *g = GUARD_VALUE;
    }
    let mut set = DistSet {
        ops: &OPS,
        imp: &mut w as *mut World as *mut c_void,
    };
    let r = f(x.as_mut_ptr(), &mut set, n as c_uint);
    w.finish();
    let past: Vec<(usize, i32)> = (n + 1..n + 1 + GUARD)
        .filter(|&i| x[i] != GUARD_VALUE)
        .map(|i| (i, x[i]))
        .collect();
    w.summary(r, (r != 0).then(|| &x[1..=n]), &past)
}

/// `int labgrade_turnpike_multiset(void *turnpike, int x[], const int distances[], unsigned
/// int count, unsigned int n)`: labgrade's C++ adapter (specs/turnpike/labgrade_adapter.cpp)
/// for a turnpike written on `std::multiset<int>`.
pub type MultisetAdapterFn =
    unsafe extern "C" fn(*const (), *mut c_int, *const c_int, c_uint, c_uint) -> c_int;

/// Runs a submission through an adapter (`f`, called as [`AdapterFn`] is), with the distances
/// as a plain array it turns into its own distance set: only the result and the points can
/// be recorded (`own_d` says so).
///
/// # Safety
///
/// `f` must call an adapter with the signature of [`AdapterFn`].
pub unsafe fn run_adapter(
    f: impl FnOnce(*mut c_int, *const c_int, c_uint, c_uint) -> c_int,
    n: usize,
    distances: &[i32],
) -> Value {
    let mut x: Vec<c_int> = vec![POISON; n + 1 + GUARD];
    for g in &mut x[n + 1..] {
        *g = GUARD_VALUE;
    }
    // A copy: the submission may write to what it was given, never to labgrade's input.
    let given: Vec<c_int> = distances.to_vec();
    let r = f(
        x.as_mut_ptr(),
        given.as_ptr(),
        given.len() as c_uint,
        n as c_uint,
    );
    let past: Vec<Value> = (n + 1..n + 1 + GUARD)
        .filter(|&i| x[i] != GUARD_VALUE)
        .map(|i| json!([i, x[i]]))
        .collect();
    json!({
        "result": r,
        "points": (r != 0).then(|| &x[1..=n]),
        "size_given": distances.len(),
        "wrote_past_end": past,
        "own_d": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use labgrade_reference::turnpike::{reconstruct, Step};

    const WORKED: [i32; 15] = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10];

    fn events(w: &World) -> Vec<(char, Vec<i32>)> {
        w.events()
            .iter()
            .map(|e| (e.kind, e.items.clone().unwrap_or_default()))
            .collect()
    }

    #[test]
    fn the_reference_on_the_world_one_backtrack() {
        let mut w = World::new(&WORKED);
        let run = reconstruct(&mut w, 6, true);
        w.finish();
        assert!(run.found);
        assert_eq!(w.backtracks(), 1);
        assert_eq!(w.size(), 0);
        assert_eq!(
            events(&w),
            vec![
                ('P', vec![2, 8, 10]),
                ('P', vec![1, 3, 7]),
                ('U', vec![1, 3, 7]),
                ('P', vec![3, 5, 7]),
                ('P', vec![2, 3, 4, 6]),
                ('P', vec![1, 2, 3, 5, 5]),
            ]
        );
        // One event per step of the reference's search.
        assert_eq!(w.events().len(), run.steps.len());
        let s = w.summary(1, Some(&run.points), &[]);
        assert_eq!(s["ops"]["find_max"], 4);
        assert_eq!(s["misuse_total"], 0);
        assert_eq!(s["undo_errors_total"], 0);
        assert_eq!(s["missing_total"], 15);
    }

    #[test]
    fn a_failed_search_is_undone_to_the_last_copy() {
        let given = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5, 7, 8, 10];
        let mut w = World::new(&given);
        let run = reconstruct(&mut w, 6, true);
        w.finish();
        assert!(!run.found);
        assert_eq!(w.backtracks(), run.backtracks);
        assert_eq!(w.backtracks(), 6);
        let s = w.summary(0, None, &[]);
        assert_eq!(
            (s["missing_total"].as_u64(), s["extra_total"].as_u64()),
            (Some(0), Some(0))
        );
        assert_eq!(s["undo_errors_total"], 0);
        // The driver's restore is the last event, and not a backtrack.
        assert_eq!(run.steps.last(), Some(&Step::DriverRestored));
        assert_eq!(events(&w).last(), Some(&('U', vec![2, 8, 10])));
    }

    #[test]
    fn a_driver_writing_delete_max_as_find_max_then_delete_is_the_text_s() {
        let d = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10];
        let mut text = World::new(&d);
        text.delete_max();
        text.delete_max();
        text.delete(2);
        text.is_empty(); // place begins
        let mut own = World::new(&d);
        let m = own.find_max();
        own.delete(m);
        let m = own.find_max();
        own.delete(m);
        own.delete(2);
        own.is_empty();
        assert_eq!(events(&own), vec![('P', vec![2, 8, 10])]);
        assert_eq!(events(&own), events(&text));
        // Its own restore after a failed search is the driver's, not a backtrack.
        for v in [2, 8, 10] {
            own.insert(v);
        }
        own.finish();
        assert_eq!(own.backtracks(), 0);
        // Inside place, a find_max still closes the placement before it.
        let mut w = World::new(&d);
        w.delete_max();
        w.delete_max();
        w.delete(2);
        w.is_empty();
        let m = w.find_max();
        w.delete(m); // not the driver's: a new placement
        w.is_empty();
        assert_eq!(events(&w), vec![('P', vec![2, 8, 10]), ('P', vec![7])]);
    }

    #[test]
    fn merged_undo_blocks_are_split_by_group() {
        let mut w = World::new(&[1, 2, 3, 4, 5, 6]);
        w.find_max();
        w.delete(6);
        w.delete(5);
        w.is_empty(); // place begins: {6, 5} committed
        w.find_max();
        w.delete(4);
        w.is_empty(); // {4} committed
        w.find_max();
        // two undo blocks back to back: the inner one, then the outer one
        w.insert(4);
        w.insert(5);
        w.insert(6);
        w.finish();
        assert_eq!(w.backtracks(), 1, "group 0 plays the driver");
        assert_eq!(
            events(&w),
            vec![
                ('P', vec![5, 6]),
                ('P', vec![4]),
                ('U', vec![4]),
                ('U', vec![5, 6])
            ]
        );
        let s = w.summary(0, None, &[]);
        assert_eq!(s["undo_errors_total"], 0);
    }

    #[test]
    fn tentative_checks_leave_no_trace() {
        let mut w = World::new(&[1, 2, 3, 4]);
        w.delete_max();
        w.is_empty(); // the "driver" group {4}
        assert!(w.contains(3));
        w.delete(3);
        assert!(!w.contains(9));
        w.insert(3); // rolled back
        assert!(w.contains(2));
        w.delete(2);
        w.is_empty();
        w.finish();
        assert_eq!(events(&w), vec![('P', vec![4]), ('P', vec![2])]);
        assert_eq!(w.backtracks(), 0);
    }

    #[test]
    fn a_wrong_undo_is_recorded_with_its_difference() {
        let mut w = World::new(&[1, 2, 3, 5, 7, 10]);
        w.delete_max();
        w.is_empty();
        w.find_max();
        w.delete(7);
        w.delete(1);
        w.delete(3);
        w.is_empty();
        w.find_max();
        w.insert(7);
        w.insert(1);
        w.insert(5); // should be 3
        w.find_max();
        w.finish();
        assert_eq!(w.backtracks(), 1);
        let s = w.summary(0, None, &[]);
        assert_eq!(s["undo_errors_total"], 1);
        let e = &s["undo_errors"][0];
        assert_eq!(e["left_out"], json!([3]));
        assert_eq!(e["extra"], json!([5]));
        assert_eq!(s["missing"], json!([[3, 1], [10, 1]]));
        assert_eq!(s["extra"], json!([[5, 1]]));
        assert_eq!(events(&w).last(), Some(&('U', vec![1, 5, 7])));
    }

    #[test]
    fn misuse_is_answered_and_recorded() {
        let mut w = World::new(&[4]);
        assert_eq!(w.delete_max(), 4);
        assert_eq!(w.find_max(), 0);
        assert_eq!(w.delete_max(), 0);
        w.delete(4);
        w.contains(-3);
        w.insert(2);
        w.finish();
        let s = w.summary(0, None, &[]);
        assert_eq!(s["misuse_total"], 4);
        let texts: Vec<String> = s["misuse"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect();
        assert!(texts[0].contains("find_max on an empty D"), "{texts:?}");
        assert!(
            texts[2].contains("delete_dist(4), but 4 is not in D"),
            "{texts:?}"
        );
        assert!(texts[3].contains("never negative"), "{texts:?}");
        assert_eq!(s["ops"]["delete_max"], 2);
        assert_eq!(s["raw"][0], json!([Op::DeleteMax as i64, 0, 4]));
    }

    #[test]
    fn events_round_trip_and_hashes_ignore_order() {
        assert_eq!(multiset_hash(&[3, 1, 3]), multiset_hash(&[3, 3, 1]));
        assert_ne!(multiset_hash(&[3, 1]), multiset_hash(&[3, 1, 3]));
        assert_ne!(multiset_hash(&[1, 2]), multiset_hash(&[1, 3]));
        let e = Event {
            kind: 'P',
            len: 2,
            hash: multiset_hash(&[1, 2]),
            op: 7,
            dmax: Some(9),
            items: Some(vec![1, 2]),
        };
        assert_eq!(Event::from_json(&e.to_json()), Some(e));
    }

    #[test]
    fn the_c_table_reaches_the_world() {
        let mut w = World::new(&WORKED);
        let mut set = DistSet {
            ops: &OPS,
            imp: &mut w as *mut World as *mut c_void,
        };
        // SAFETY: a dist_set over a live world, on this thread.
        unsafe {
            assert_eq!((OPS.find_max)(&mut set), 10);
            assert_eq!((OPS.contains)(&mut set, 2), 1);
            (OPS.delete_dist)(&mut set, 2);
            assert_eq!((OPS.size)(&mut set), 14);
            assert_eq!((OPS.is_empty)(&mut set), 0);
            assert_eq!((OPS.find_max)(std::ptr::null_mut()), 0);
        }
        assert_eq!(w.size(), 14);
    }
}
