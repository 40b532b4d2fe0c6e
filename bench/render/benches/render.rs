//! `cargo bench -p canvas-render-bench`: drawing a 10,000-item map as SVG and
//! as PNG, with two references measured in the same run: serialising the same
//! items to JSON (what listing them costs the gateway anyway) and drawing a
//! 1,000-item map (to show the cost grows linearly).

use canvas_render::{render_png, render_svg, NoContent, RenderOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let small = canvas_render_bench::project(1_000);
    let items = canvas_render_bench::project(10_000);
    let mut group = c.benchmark_group("render");
    group.sample_size(10);
    group
        .bench_function("baseline_json_serialise_10000", |b| b.iter(|| serde_json::to_vec(black_box(&items)).unwrap()));
    group.bench_function("svg_1000", |b| {
        b.iter(|| render_svg(black_box(&small), &NoContent, &RenderOptions::default()))
    });
    group.bench_function("svg_10000", |b| {
        b.iter(|| render_svg(black_box(&items), &NoContent, &RenderOptions::default()))
    });
    // The whole 10,000-item map (about 16,000 × 16,000 map units) at 0.25 px per unit: 4,000 × 4,000 pixels.
    let drawing = render_svg(&items, &NoContent, &RenderOptions { scale: 0.25, ..Default::default() }).unwrap();
    println!("10,000 items: SVG {} bytes, PNG {}×{} px", drawing.svg.len(), drawing.width, drawing.height);
    group.bench_function("png_10000_at_0.25", |b| b.iter(|| render_png(black_box(&drawing)).unwrap()));
    group.finish();
}

criterion_group!(render, benches);
criterion_main!(render);
