//! The balance lab: studies that compare rule variants across skill levels. So far its statistics;
//! the study runner, reports and charts come with the balance-lab work.

pub mod stats;
