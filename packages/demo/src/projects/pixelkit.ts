import type { ProjectDef } from './types.js'

const resize = `use crate::image::{Image, Rgba};

/// Resampling filters for [\`resize\`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Bilinear,
}

/// Resize \`src\` to \`width\` x \`height\` with the given filter.
pub fn resize(src: &Image, width: u32, height: u32, filter: Filter) -> Image {
    let mut out = Image::new(width, height);
    let sx = src.width as f32 / width as f32;
    let sy = src.height as f32 / height as f32;
    for y in 0..height {
        for x in 0..width {
            let px = match filter {
                Filter::Nearest => src.get((x as f32 * sx) as u32, (y as f32 * sy) as u32),
                Filter::Bilinear => bilinear(src, x as f32 * sx, y as f32 * sy),
            };
            out.set(x, y, px);
        }
    }
    out
}

fn bilinear(src: &Image, fx: f32, fy: f32) -> Rgba {
    let x0 = fx.floor() as u32;
    let y0 = fy.floor() as u32;
    let x1 = x0 + 1;
    let y1 = y0 + 1;
    let (tx, ty) = (fx - x0 as f32, fy - y0 as f32);
    let lerp = |a: Rgba, b: Rgba, t: f32| a.mix(b, t);
    let top = lerp(src.get(x0, y0), src.get(x1, y0), tx);
    let bottom = lerp(src.get(x0, y1), src.get(x1, y1), tx);
    lerp(top, bottom, ty)
}
`

const image = `/// An 8-bit RGBA pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    /// Linear interpolation per channel, \`t\` in [0, 1].
    pub fn mix(self, other: Rgba, t: f32) -> Rgba {
        let mut out = [0u8; 4];
        for i in 0..4 {
            out[i] = (self.0[i] as f32 + (other.0[i] as f32 - self.0[i] as f32) * t).round() as u8;
        }
        Rgba(out)
    }
}

/// A row-major RGBA image.
#[derive(Debug, Clone)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pixels: Vec<Rgba>,
}

impl Image {
    pub fn new(width: u32, height: u32) -> Self {
        Image { width, height, pixels: vec![Rgba::default(); (width * height) as usize] }
    }

    pub fn get(&self, x: u32, y: u32) -> Rgba {
        self.pixels[(y * self.width + x) as usize]
    }

    pub fn set(&mut self, x: u32, y: u32, px: Rgba) {
        let i = (y * self.width + x) as usize;
        self.pixels[i] = px;
    }
}
`

const blur = `use crate::image::{Image, Rgba};

/// Box blur with the given radius, applied horizontally then vertically.
pub fn box_blur(src: &Image, radius: u32) -> Image {
    let horizontal = pass(src, radius, true);
    pass(&horizontal, radius, false)
}

fn pass(src: &Image, radius: u32, horizontal: bool) -> Image {
    let mut out = Image::new(src.width, src.height);
    let r = radius as i64;
    for y in 0..src.height {
        for x in 0..src.width {
            let mut acc = [0u32; 4];
            let mut n = 0u32;
            for d in -r..=r {
                let (sx, sy) = if horizontal { (x as i64 + d, y as i64) } else { (x as i64, y as i64 + d) };
                if sx < 0 || sy < 0 || sx >= src.width as i64 || sy >= src.height as i64 {
                    continue;
                }
                let px = src.get(sx as u32, sy as u32);
                for c in 0..4 {
                    acc[c] += px.0[c] as u32;
                }
                n += 1;
            }
            out.set(x, y, Rgba(acc.map(|v| (v / n) as u8)));
        }
    }
    out
}
`

export const pixelkit: ProjectDef = {
  key: 'pixelkit',
  files: {
    'README.md': '# pixelkit\n\nSmall, dependency-free image operations in Rust: resize, blur, crop.\n\n```rust\nlet thumb = pixelkit::resize(&img, 128, 128, Filter::Bilinear);\n```\n',
    'Cargo.toml': '[package]\nname = "pixelkit"\nversion = "0.4.2"\nedition = "2021"\nlicense = "MIT"\n\n[dev-dependencies]\ncriterion = "0.5"\n\n[[bench]]\nname = "resize"\nharness = false\n',
    'src/lib.rs': 'pub mod blur;\npub mod image;\npub mod resize;\n\npub use blur::box_blur;\npub use image::{Image, Rgba};\npub use resize::{resize, Filter};\n',
    'src/image.rs': image,
    'src/resize.rs': resize,
    'src/blur.rs': blur,
    'tests/resize.rs': 'use pixelkit::{resize, Filter, Image, Rgba};\n\n#[test]\nfn downscale_keeps_solid_colour() {\n    let mut img = Image::new(8, 8);\n    for y in 0..8 { for x in 0..8 { img.set(x, y, Rgba([200, 10, 10, 255])); } }\n    let out = resize(&img, 3, 3, Filter::Bilinear);\n    assert_eq!(out.get(2, 2), Rgba([200, 10, 10, 255]));\n}\n\n#[test]\nfn upscale_bilinear_does_not_panic_at_edges() {\n    let img = Image::new(4, 4);\n    let out = resize(&img, 9, 9, Filter::Bilinear);\n    assert_eq!(out.width, 9);\n}\n',
    'benches/resize.rs': 'use criterion::{criterion_group, criterion_main, Criterion};\nuse pixelkit::{resize, Filter, Image};\n\nfn bench(c: &mut Criterion) {\n    let img = Image::new(1920, 1080);\n    c.bench_function("bilinear 1080p -> 480p", |b| b.iter(|| resize(&img, 854, 480, Filter::Bilinear)));\n    c.bench_function("nearest 1080p -> 480p", |b| b.iter(|| resize(&img, 854, 480, Filter::Nearest)));\n}\n\ncriterion_group!(benches, bench);\ncriterion_main!(benches);\n',
  },
  test: { command: 'cargo test', style: 'cargo' },
  build: { command: 'cargo build --release', style: 'cargo' },
  vocabulary: {
    nouns: ['resize', 'blur', 'crop', 'rgba', 'bilinear', 'nearest', 'alpha', 'edge', 'stride', 'palette', 'gamma', 'rotate'],
    verbs: ['keeps', 'clamps', 'rounds', 'preserves', 'handles', 'rejects', 'matches', 'wraps', 'scales', 'mixes'],
  },
  images: [
    { path: 'docs/bilinear-edges.png', kind: 'photo', width: 320, height: 200 },
    { path: 'docs/benchmark.png', kind: 'chart', width: 480, height: 260 },
  ],
  bugs: [
    {
      title: 'Bilinear upscale panics at the edge',
      prompt: '`cargo test` panics with index out of bounds in the bilinear upscale test. Please fix it properly, not by catching the panic.',
      file: 'src/resize.rs',
      test: 'upscale_bilinear_does_not_panic_at_edges',
      failure: "thread 'upscale_bilinear_does_not_panic_at_edges' panicked at src/image.rs:38:9:\nindex out of bounds: the len is 16 but the index is 16\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      reasoning: 'bilinear() samples (x0+1, y0+1). On the last column or row of the source, x0 + 1 == width, which is out of bounds. The neighbour must be clamped to width - 1 / height - 1. Clamping is also the right edge behaviour for image resampling (edge pixels are extended).',
      oldString: '    let x1 = x0 + 1;\n    let y1 = y0 + 1;',
      newString: '    // Clamp the neighbour at the last row/column: edges are extended, not wrapped.\n    let x1 = (x0 + 1).min(src.width - 1);\n    let y1 = (y0 + 1).min(src.height - 1);',
      answer: "The panic came from `bilinear()` sampling the right/bottom neighbour `(x0 + 1, y0 + 1)`. When upscaling, the last output pixels map onto the **last source column/row**, so `x0 + 1 == width` and `Image::get` indexes one past the end (`len is 16 but the index is 16` for the 4×4 test image).\n\nFix — clamp the neighbour, which extends the edge pixels (the usual choice for resampling):\n\n```rust\nlet x1 = (x0 + 1).min(src.width - 1);\nlet y1 = (y0 + 1).min(src.height - 1);\n```\n\n`cargo test`: 2 passed. Downscaling was never affected because `fx` stays below `width - 1` there.",
    },
  ],
  features: [
    {
      title: 'Add crop operation',
      prompt: 'Add a `crop(img, x, y, w, h)` function that returns a new Image and errors (not panics) when the rectangle is outside the source. Export it from lib.rs.',
      todos: ['Add src/crop.rs with crop() and CropError', 'Export it from lib.rs', 'cargo test'],
      newFile: {
        path: 'src/crop.rs',
        content: 'use crate::image::Image;\nuse std::fmt;\n\n#[derive(Debug, PartialEq, Eq)]\npub struct CropError {\n    pub requested: (u32, u32, u32, u32),\n    pub bounds: (u32, u32),\n}\n\nimpl fmt::Display for CropError {\n    fn fmt(&self, f: &mut fmt::Formatter<\'_>) -> fmt::Result {\n        let (x, y, w, h) = self.requested;\n        write!(f, "crop {w}x{h}+{x}+{y} is outside a {}x{} image", self.bounds.0, self.bounds.1)\n    }\n}\n\nimpl std::error::Error for CropError {}\n\n/// Copy the \\`w\\` x \\`h\\` rectangle at (\\`x\\`, \\`y\\`) into a new image.\npub fn crop(src: &Image, x: u32, y: u32, w: u32, h: u32) -> Result<Image, CropError> {\n    let fits = x.checked_add(w).is_some_and(|r| r <= src.width) && y.checked_add(h).is_some_and(|b| b <= src.height);\n    if !fits {\n        return Err(CropError { requested: (x, y, w, h), bounds: (src.width, src.height) });\n    }\n    let mut out = Image::new(w, h);\n    for dy in 0..h {\n        for dx in 0..w {\n            out.set(dx, dy, src.get(x + dx, y + dy));\n        }\n    }\n    Ok(out)\n}\n',
      },
      edits: [{ file: 'src/lib.rs', oldString: 'pub mod blur;\npub mod image;', newString: 'pub mod blur;\npub mod crop;\npub mod image;' }],
      answer: "Added `src/crop.rs`:\n\n- `crop(&img, x, y, w, h) -> Result<Image, CropError>`\n- bounds are checked with `checked_add`, so `x + w` cannot overflow on huge inputs\n- `CropError` implements `Display` + `std::error::Error`: `crop 10x10+95+0 is outside a 100x100 image`\n\nExported as `pixelkit::crop::crop`. I did not re-export it at the crate root yet, in case you want `crop` to become a method on `Image` instead.",
      followUp: {
        prompt: 'Re-export it at the root and add tests, including the overflow case.',
        testFile: {
          path: 'tests/crop.rs',
          content: 'use pixelkit::crop::{crop, CropError};\nuse pixelkit::{Image, Rgba};\n\n#[test]\nfn crops_the_requested_rectangle() {\n    let mut img = Image::new(4, 4);\n    img.set(2, 1, Rgba([1, 2, 3, 4]));\n    let out = crop(&img, 2, 1, 2, 2).unwrap();\n    assert_eq!((out.width, out.height), (2, 2));\n    assert_eq!(out.get(0, 0), Rgba([1, 2, 3, 4]));\n}\n\n#[test]\nfn rejects_out_of_bounds() {\n    let img = Image::new(4, 4);\n    assert_eq!(crop(&img, 3, 0, 2, 1).unwrap_err(), CropError { requested: (3, 0, 2, 1), bounds: (4, 4) });\n}\n\n#[test]\nfn rejects_overflowing_rectangles() {\n    let img = Image::new(4, 4);\n    assert!(crop(&img, u32::MAX, 0, 2, 1).is_err());\n}\n',
        },
        answer: 'Added `tests/crop.rs` with three cases (happy path, out of bounds, `u32::MAX` overflow). `cargo test`: 5 passed.',
      },
    },
  ],
  questions: [
    {
      title: 'Speed up box blur',
      prompt: 'box_blur is slow on big images (radius 8 on a 4k photo takes seconds). What are the options, roughly how much would each buy us?',
      reads: ['src/blur.rs'],
      answer: "`box_blur` is **O(w · h · r)**: every output pixel re-sums `2r + 1` neighbours in each pass. For 3840×2160 at r = 8 that's ≈ 280 M reads per pass.\n\n| option | complexity | expected gain | effort |\n|---|---|---|---|\n| sliding-window sum (add the entering pixel, subtract the leaving one) | O(w · h) | ~8–10× at r = 8, more at larger radii | small |\n| process rows in parallel with `rayon` | same / cores | ~cores× | small, adds a dependency |\n| work on `[u16; 4]` accumulators and `chunks_exact` | same | 1.5–2× (autovectorises) | medium |\n| integral image (summed-area table) | O(w · h) + memory | like sliding window; any radius in O(1) | medium |\n\nI'd start with the **sliding window**: it keeps the code dependency-free and removes the radius from the cost entirely:\n\n```rust\nlet mut acc = sum of the first r + 1 pixels;\nfor x in 0..width {\n    out[x] = acc / window_len(x);\n    acc += px(x + r + 1) - px(x - r);   // with edge checks\n}\n```\n\nWant me to implement it with a criterion benchmark so we can see the before/after?",
    },
  ],
  explore: {
    title: 'Audit index arithmetic',
    userPrompt: 'Can you get a subagent to audit where we compute pixel indices? I want to know every place that could overflow or go out of bounds.',
    description: 'Audit pixel index arithmetic',
    prompt: 'List every place where pixel indices or coordinates are computed (y * width + x, x + 1, offsets). For each: file, line, and whether it can overflow or go out of bounds. Research only.',
    pattern: 'width \\+|\\* self.width|\\+ 1|as u32',
    reads: ['src/image.rs', 'src/resize.rs'],
    result: 'Index arithmetic:\n- `src/image.rs` `get`/`set` (lines 31, 35): `(y * width + x) as usize` — u32 multiply can overflow above 65535×65536 pixels.\n- `src/resize.rs` `bilinear` (lines 33–34): `x0 + 1`, `y0 + 1` go out of bounds on the last column/row when upscaling.\n- `src/blur.rs` `pass`: uses i64 and checks bounds — safe.',
    answer: "The subagent found three spots:\n\n1. **`Image::get` / `Image::set`** — `(y * self.width + x)` is computed in `u32`; fine below ~4 G pixels, but it should be `usize` arithmetic to be safe on 64-bit.\n2. **`bilinear()`** — `x0 + 1` / `y0 + 1` read past the last column/row when upscaling. This is a real bug.\n3. **`box_blur`** — already uses `i64` with explicit bounds checks. Safe.\n\nI'd fix (2) now and change (1) to `y as usize * self.width as usize + x as usize`.",
  },
  plan: {
    title: 'Plan SIMD resize',
    file: 'src/resize.rs',
    prompt: 'Plan how we could add a SIMD fast path to @src/resize.rs without breaking the scalar version or adding unsafe everywhere.',
    grep: 'fn ',
    reasoning: 'Keep the scalar path as the reference implementation and test oracle. std::simd is nightly-only; the stable options are wide or hand-written intrinsics behind cfg(target_feature). Runtime detection with is_x86_feature_detected keeps one binary.',
    answer: "### Plan: SIMD bilinear resize\n\n1. Keep `resize` (scalar) as the **reference**; add `resize_fast` behind the same signature.\n2. Split the work into *horizontal* then *vertical* passes over rows — contiguous memory, which is what SIMD wants.\n3. Use the `wide` crate (stable, safe API) for `f32x8` lerps; no `unsafe` outside one `unsafe fn` per target.\n4. Dispatch once per call with `is_x86_feature_detected!(\"avx2\")`, falling back to scalar.\n5. Property test: for random images and sizes, `resize_fast` is within ±1 of `resize` per channel.\n6. Criterion bench already exists (`benches/resize.rs`); add the fast path next to it.\n\nRisk: rounding differences between `mix()` and the SIMD lerp — that's why the property test allows ±1.",
  },
}
