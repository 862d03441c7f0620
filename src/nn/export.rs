//! A frozen network and positions written as NumPy arrays (`.npy`) with a `network.json` index, so a
//! program outside the crate can rebuild the same network: `scripts/onnx_quantized.py` builds it as
//! an ONNX graph and quantizes it with ONNX Runtime, the reference the 8-bit network is measured
//! against. Layers are in ONNX's layout, batch norms folded: a convolution's weight is
//! `[outputs, inputs, k, k]`, a dense layer's `[inputs, outputs]` over a channels-first flattening.

use std::path::Path;

use serde::Serialize;

use super::model::NetShape;

/// One layer of a frozen network.
#[derive(Clone, Debug, Serialize)]
pub struct ExportedLayer {
    /// `stem`, `block0.first`, `block0.second`, …, `policy.conv`, `policy.out` (dense) or
    /// `policy.cells` (per cell), `value.conv`, `value.hidden`, `value.out`.
    pub name: String,
    /// `conv` or `dense`.
    pub kind: &'static str,
    pub shape: Vec<usize>,
    #[serde(skip)]
    pub weight: Vec<f32>,
    #[serde(skip)]
    pub bias: Vec<f32>,
}

/// The element types written.
pub enum Elements<'a> {
    F32(&'a [f32]),
    U8(&'a [u8]),
}

/// Writes `values` as a little-endian `.npy` array of `shape` (format version 1.0).
pub fn write_npy(path: &Path, shape: &[usize], values: Elements) -> std::io::Result<()> {
    let (descr, len) = match values {
        Elements::F32(v) => ("<f4", v.len()),
        Elements::U8(v) => ("|u1", v.len()),
    };
    if shape.iter().product::<usize>() != len {
        let problem = format!("{len} values do not fill the shape {shape:?}");
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, problem));
    }
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let dims = if dims.len() == 1 { format!("{},", dims[0]) } else { dims.join(", ") };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({dims}), }}");
    // Magic (6) + version (2) + length (2) + header, padded with spaces to a multiple of 64, then '\n'.
    let padding = 64 - (10 + header.len() + 1) % 64;
    header.push_str(&" ".repeat(padding % 64));
    header.push('\n');
    crate::files::write_atomic_with(path, |out| {
        out.write_all(b"\x93NUMPY\x01\x00")?;
        out.write_all(&(header.len() as u16).to_le_bytes())?;
        out.write_all(header.as_bytes())?;
        match values {
            Elements::F32(v) => v.iter().try_for_each(|x| out.write_all(&x.to_le_bytes())),
            Elements::U8(v) => out.write_all(v),
        }
    })
}

/// Writes `layers` (one `NAME.weight.npy` and `NAME.bias.npy` each) and `network.json` (the shape and
/// the layers in forward order) into `dir`.
pub fn write_network(dir: &Path, shape: &NetShape, layers: &[ExportedLayer]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for layer in layers {
        write_npy(
            &dir.join(format!("{}.weight.npy", layer.name)),
            &layer.shape,
            Elements::F32(&layer.weight),
        )?;
        let outputs = if layer.kind == "conv" { layer.shape[0] } else { layer.shape[1] };
        write_npy(&dir.join(format!("{}.bias.npy", layer.name)), &[outputs], Elements::F32(&layer.bias))?;
    }
    let index = serde_json::json!({ "shape": shape, "layers": layers });
    let text = serde_json::to_string_pretty(&index).expect("the index serialises") + "\n";
    crate::files::write_atomic(&dir.join("network.json"), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_npy_file_has_numpys_header_and_the_values_in_order() {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("array.npy");
        write_npy(&path, &[2, 3], Elements::F32(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
        let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        assert_eq!((10 + header_len) % 64, 0, "the data starts on a 64-byte boundary");
        let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
        assert!(
            header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"),
            "{header}"
        );
        assert!(header.ends_with('\n'));
        let values: Vec<f32> = bytes[10 + header_len..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(values, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    }
}
