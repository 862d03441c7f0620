//! Adam with L2 weight decay, exactly as burn's `AdamConfig` with `WeightDecayConfig` computes it (the
//! same f32 operations in the same order), over the flat parameter vector; and its state in burn's
//! optimizer record (burnpack: per parameter `{id}.momentum.moment_1`, `{id}.momentum.moment_2`,
//! `{id}.momentum.time` and `{id}.__rank`, the id mapped to the parameter's path), so a checkpoint's
//! `optimizer.bpk` is the same file whichever learner wrote it.

use std::collections::BTreeMap;

use burn_pack::{Bytes, DType, Reader, Scalar, Writer};

use super::params::Slot;

const BETA_1: f32 = 0.9;
const BETA_2: f32 = 0.999;
/// burn's default.
const EPSILON: f32 = 1e-5;

/// The moments of every parameter and the number of steps taken.
#[derive(Clone, Debug, Default)]
pub struct Adam {
    moment_1: Vec<f32>,
    moment_2: Vec<f32>,
    time: u64,
}

impl Adam {
    pub fn new(parameters: usize) -> Adam {
        Adam { moment_1: vec![0.0; parameters], moment_2: vec![0.0; parameters], time: 0 }
    }

    pub fn time(&self) -> u64 {
        self.time
    }

    #[cfg(test)]
    pub fn moments(&self) -> (&[f32], &[f32]) {
        (&self.moment_1, &self.moment_2)
    }

    /// One step: `grad += decay · param`, the moments, then `param -= lr · m̂ / (√v̂ + ε)` in burn's
    /// arrangement of the bias corrections.
    pub fn step(&mut self, params: &mut [f32], grads: &[f32], learning_rate: f64, weight_decay: f32) {
        self.time += 1;
        let time = self.time as i32;
        let correction_2 = (1.0 - BETA_2.powi(time)).sqrt();
        let factor = correction_2 / (1.0 - BETA_1.powi(time));
        let epsilon = EPSILON * correction_2;
        let rate = learning_rate as f32;
        let (first_step, (keep_1, keep_2)) = (self.time == 1, (1.0 - BETA_1, 1.0 - BETA_2));
        for (((param, &grad), m), v) in
            params.iter_mut().zip(grads).zip(&mut self.moment_1).zip(&mut self.moment_2)
        {
            let grad = *param * weight_decay + grad;
            if first_step {
                *m = grad * keep_1;
                *v = grad * grad * keep_2;
            } else {
                *m = *m * BETA_1 + grad * keep_1;
                *v = *v * BETA_2 + grad * grad * keep_2;
            }
            let update = *m * factor / (v.sqrt() + epsilon);
            *param -= update * rate;
        }
    }

    /// The state as burn's optimizer record.
    pub fn to_record(&self, slots: &[Slot]) -> Vec<u8> {
        if self.time == 0 {
            // burn keeps no state for a parameter before its first step.
            return Writer::new(Vec::new()).into_bytes().expect("an empty record serialises").to_vec();
        }
        let mut tensors = Vec::new();
        let mut writer_scalars = Vec::new();
        let mut metadata = Vec::new();
        for slot in slots {
            let id = slot.id.val();
            for (name, moments) in [("moment_1", &self.moment_1), ("moment_2", &self.moment_2)] {
                let values = slot.arrangement.to_burn(&moments[slot.range()]);
                let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
                tensors.push(burn_pack::Tensor::new(
                    format!("{id}.momentum.{name}"),
                    DType::F32,
                    slot.dims.clone(),
                    Some(id),
                    Bytes::from_bytes_vec(bytes),
                ));
            }
            writer_scalars.push((format!("{id}.__rank"), Scalar::UInt(slot.dims.len() as u64)));
            writer_scalars.push((format!("{id}.momentum.time"), Scalar::UInt(self.time)));
            metadata.push((id.to_string(), slot.path.clone()));
        }
        let mut writer = Writer::new(tensors);
        for (key, value) in &writer_scalars {
            writer = writer.with_scalar(key, *value);
        }
        for (key, value) in &metadata {
            writer = writer.with_metadata(key, value);
        }
        writer.into_bytes().expect("the optimizer record serialises").to_vec()
    }

    /// Reads burn's optimizer record, matching its parameters to `slots` by path (or, where the record
    /// names no path, by id). A record without state (written before the first step) gives a fresh
    /// optimizer.
    pub fn from_record(bytes: &[u8], slots: &[Slot]) -> Result<Adam, String> {
        let reader = Reader::from_bytes(Bytes::from_bytes_vec(bytes.to_vec()))
            .map_err(|e| format!("the optimizer state is not a burnpack record: {e}"))?;
        let paths: BTreeMap<String, String> = reader.metadata().clone();
        let scalars = reader.scalars().clone();
        let tensors = reader.into_tensors().map_err(|e| format!("the optimizer state does not read: {e}"))?;
        let parameters = slots.last().map_or(0, |s| s.offset + s.len);
        let mut adam = Adam::new(parameters);
        if tensors.is_empty() {
            return Ok(adam);
        }
        let mut filled = vec![[false; 2]; slots.len()];
        let mut time = None;
        for tensor in tensors {
            let (name, dtype, shape, param_id, data) =
                tensor.into_parts().map_err(|e| format!("the optimizer state does not read: {e}"))?;
            let (id, field) =
                name.split_once('.').ok_or_else(|| format!("optimizer state: unexpected tensor `{name}`"))?;
            let which = match field {
                "momentum.moment_1" => 0,
                "momentum.moment_2" => 1,
                _ => {
                    return Err(format!(
                        "optimizer state: `{name}` is not Adam's (other optimizers are not supported)"
                    ));
                }
            };
            let index = match paths.get(id) {
                Some(path) => slots.iter().position(|s| &s.path == path),
                None => slots.iter().position(|s| Some(s.id.val()) == param_id),
            }
            .ok_or_else(|| format!("optimizer state: `{name}` belongs to no parameter of this network"))?;
            let slot = &slots[index];
            if dtype != DType::F32 || shape.to_vec() != slot.dims {
                return Err(format!(
                    "optimizer state: `{name}` has shape {:?}, the network's {} has {:?}",
                    shape.to_vec(),
                    slot.path,
                    slot.dims
                ));
            }
            let values: Vec<f32> =
                data.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            let target = if which == 0 { &mut adam.moment_1 } else { &mut adam.moment_2 };
            target[slot.range()].copy_from_slice(&slot.arrangement.to_ours(&values));
            filled[index][which] = true;
            let step = scalars.get(&format!("{id}.momentum.time")).and_then(|s| u64::try_from(*s).ok());
            match (time, step) {
                (_, None) => return Err(format!("optimizer state: `{id}` has no step count")),
                (Some(t), Some(s)) if t != s => {
                    return Err("optimizer state: parameters at different steps".to_string());
                }
                (_, step) => time = step,
            }
        }
        if let Some(missing) = filled.iter().position(|f| *f != [true, true]) {
            return Err(format!("optimizer state: no moments for {}", slots[missing].path));
        }
        adam.time = time.unwrap_or(0);
        Ok(adam)
    }
}
