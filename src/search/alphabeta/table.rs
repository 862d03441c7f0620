//! The transposition table: one entry per slot, indexed by the position key's low bits and checked by
//! its high 32 bits. An entry keeps the best move found, the score with the kind of bound it is, and
//! the depth it was searched to; a new entry replaces an old one of the same position, one searched
//! no deeper, or one left from an earlier search.

/// What a stored score bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score (a PV node).
    Exact,
    /// At least the score (a cut node: the search failed high).
    Lower,
    /// At most the score (an all node: no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    check: u32,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    age: u8,
}

pub struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    age: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `megabytes` MB (a power of two of slots, at least 1,024).
    pub fn new(megabytes: usize) -> Table<M> {
        let entry = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let wanted = (megabytes.max(1) << 20) / entry;
        let slots = (wanted.next_power_of_two() / 2).max(1 << 10);
        Table { slots: vec![None; slots], mask: slots - 1, age: 0 }
    }

    /// Marks later entries as this search's, so that an earlier search's give way.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.slots[key as usize & self.mask].filter(|e| e.check == (key >> 32) as u32)
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i16, bound: Bound) {
        let check = (key >> 32) as u32;
        let slot = &mut self.slots[key as usize & self.mask];
        let replace = match slot {
            None => true,
            Some(old) => {
                old.check != check || old.age != self.age || depth >= old.depth - 2 || bound == Bound::Exact
            }
        };
        if replace {
            // Keep the old move when the new search found none for the same position.
            let mv = mv.or(slot.filter(|old| old.check == check).and_then(|old| old.mv));
            *slot = Some(Entry { check, mv, score, depth, bound, age: self.age });
        }
    }

    /// Permille of the first thousand slots holding an entry of this search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample].iter().filter(|s| s.is_some_and(|e| e.age == self.age)).count();
        (used * 1000 / sample) as u32
    }
}
