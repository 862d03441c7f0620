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

/// A table that the machine's free memory cannot hold: refused before anything is allocated, so that
/// a size in the option's range never ends the process (an abort, or the kernel's OOM kill).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a {asked} MB table does not fit in the memory this process can take now; the largest that does is {fits} MB"
)]
pub struct TableTooBig {
    pub asked: usize,
    pub fits: usize,
}

/// The share of the free memory a table may take: the rest is left to the process and the machine.
const FREE_SHARE: f64 = 0.8;

impl<M: Copy> Table<M> {
    /// A table of about `megabytes` MB (a power of two of slots, at least 1,024), or the reason it
    /// cannot be had: more than [`FREE_SHARE`] of the free memory, or memory the process may not map.
    pub fn new(megabytes: usize) -> Result<Table<M>, TableTooBig> {
        let free = crate::memory::available_bytes().map(|bytes| (bytes as f64 * FREE_SHARE) as u64);
        Self::within(megabytes, free)
    }

    /// [`Table::new`] with `free` bytes to take (`None`: as many as the process can map).
    fn within(megabytes: usize, free: Option<u64>) -> Result<Table<M>, TableTooBig> {
        let held = |m: usize| free.is_none_or(|free| Self::bytes_of(Self::slots_for(m)) <= free);
        // Reserving address space costs nothing until it is written; the reservation is let go.
        let mapped = |m: usize| Vec::<Option<Entry<M>>>::new().try_reserve_exact(Self::slots_for(m)).is_ok();
        let too_big = || TableTooBig {
            asked: megabytes,
            fits: Self::largest_below(megabytes, |m| held(m) && mapped(m)),
        };
        if !held(megabytes) {
            return Err(too_big());
        }
        let slots = Self::slots_for(megabytes);
        let mut table = Vec::new();
        table.try_reserve_exact(slots).map_err(|_| too_big())?;
        table.resize(slots, None);
        Ok(Table { slots: table, mask: slots - 1, age: 0 })
    }

    fn slots_for(megabytes: usize) -> usize {
        let entry = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let wanted = megabytes.clamp(1, usize::MAX >> 21).saturating_mul(1 << 20) / entry;
        (wanted.next_power_of_two() / 2).max(1 << 10)
    }

    fn bytes_of(slots: usize) -> u64 {
        slots as u64 * std::mem::size_of::<Option<Entry<M>>>() as u64
    }

    /// The largest size below `asked` (which does not fit) that `fits`, at least 1: a bisection, for a
    /// table's bytes never shrink as the megabytes grow.
    fn largest_below(asked: usize, fits: impl Fn(usize) -> bool) -> usize {
        let (mut fitting, mut too_big) = (1usize, asked.max(2));
        while too_big - fitting > 1 {
            let middle = fitting + (too_big - fitting) / 2;
            if fits(middle) {
                fitting = middle;
            } else {
                too_big = middle;
            }
        }
        fitting
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

#[cfg(test)]
mod tests {
    use super::*;

    type Chess = Table<crate::game::chess::moves::ChessMove>;

    #[test]
    fn a_table_beyond_the_free_memory_is_refused_naming_the_largest_that_fits() {
        let free = 10 << 20;
        let refused = Chess::within(64, Some(free)).err().expect("64 MB is more than 10 MB");
        assert_eq!(refused.asked, 64);
        let bytes = |m| Chess::bytes_of(Chess::slots_for(m));
        assert!(bytes(refused.fits) <= free && bytes(refused.fits + 1) > free, "{refused:?}");
        let made = Chess::within(refused.fits, Some(free)).expect("the size named fits");
        assert_eq!(Chess::bytes_of(made.slots.len()), bytes(refused.fits));
    }

    #[test]
    fn a_table_the_process_cannot_map_is_refused_not_aborted() {
        let asked = usize::MAX >> 21;
        let refused = Chess::within(asked, None).err().expect("no machine maps exabytes");
        assert!(refused.fits < asked, "{refused:?}");
        assert!(refused.to_string().contains(&format!("the largest that does is {} MB", refused.fits)));
    }
}
