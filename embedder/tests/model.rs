//! The real all-MiniLM-L6-v2 through candle (numbers only a correct implementation reproduces) and
//! chunking with its tokenizer. One binary, so the model is linked and loaded once.

mod common;

use std::sync::Arc;

use canvas_embed::{cosine_similarity, Chunk, ChunkerConfig, EmbeddingModel, LocalEmbedder, LocalModelOptions};
use common::{embed, model, model_dir};

#[test]
fn reproduces_the_sentence_transformers_documentation_similarity() {
    let v = embed(&["A man is eating food.", "A man is eating a piece of bread."]);
    let similarity = cosine_similarity(&v[0], &v[1]);
    println!("cosine similarity: {similarity:.4}");
    assert!((similarity - 0.7553).abs() <= 0.001, "similarity {similarity} is not 0.7553 ± 0.001");
}

#[test]
fn automobile_is_closer_to_car_than_to_unrelated_sentences() {
    let texts = [
        "automobile",
        "car",
        "The committee approved the annual budget.",
        "She plays the violin in an orchestra.",
        "Bake the bread for forty minutes.",
        "Photosynthesis converts light into chemical energy.",
    ];
    let v = embed(&texts);
    let to_car = cosine_similarity(&v[0], &v[1]);
    for (i, text) in texts.iter().enumerate().skip(2) {
        let other = cosine_similarity(&v[0], &v[i]);
        println!("automobile~car {to_car:.3}, automobile~{text:?} {other:.3}");
        assert!(to_car > other + 0.2, "automobile~car {to_car} not clearly above automobile~{text:?} {other}");
    }
}

#[test]
fn vectors_have_384_unit_length_dimensions() {
    assert_eq!(model().dimension(), 384);
    assert_eq!(model().max_seq_length(), 256);
    for v in embed(&["hello", "", "Ünïcödé 東京 🚀"]) {
        assert_eq!(v.len(), 384);
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
    }
    assert!(embed(&[]).is_empty());
}

#[test]
fn batched_results_equal_single_results_in_input_order() {
    let texts = [
        "short",
        "A considerably longer sentence, so that the batch needs padding for the shorter ones.",
        "A man is eating food.",
        "medium length sentence here",
    ];
    let batched = embed(&texts);
    // Batch size 1 means no padding at all: any masking or re-ordering error would show.
    let single = LocalEmbedder::load(&model_dir(), LocalModelOptions { batch_size: 1, ..Default::default() }).unwrap();
    for (text, b) in texts.iter().zip(&batched) {
        let s = single.embed_blocking(&[text.to_string()]).unwrap().remove(0);
        let diff = max_diff(b, &s);
        assert!(diff < 1e-4, "{text:?}: batched and single differ by {diff}");
    }
}

#[test]
fn truncates_at_256_word_pieces_not_at_the_tokenizer_files_128() {
    let chunker = model().chunker(ChunkerConfig { max_tokens: 254, overlap: 0 }).unwrap();
    let sentence = "The quick brown fox jumps over the lazy dog near the river bank. ";
    let per_sentence = chunker.count_tokens(sentence).unwrap();
    let tail = "Completely different words about quantum chromodynamics and medieval poetry.";
    // ~200 word pieces: the tail is inside the 254-piece window and must change the vector.
    let within = sentence.repeat(200 / per_sentence);
    // ~300 word pieces: the tail is past the window and must not change it.
    let beyond = sentence.repeat(300 / per_sentence);
    let v = embed(&[&within, &format!("{within}{tail}"), &beyond, &format!("{beyond}{tail}")]);
    assert!(cosine_similarity(&v[0], &v[1]) < 0.999, "text after 128 pieces was ignored");
    let same = cosine_similarity(&v[2], &v[3]);
    assert!(same > 0.99999, "text after 256 pieces changed the vector: {same}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_trait_object_gives_the_blocking_results() {
    let model: Arc<dyn EmbeddingModel> = Arc::new(model().clone());
    assert_eq!(model.model_id(), "all-MiniLM-L6-v2");
    let texts = vec!["A man is eating food.".to_string(), "car".to_string()];
    let (a, b) = tokio::join!(model.embed(&texts), model.embed(&texts[1..]));
    let (a, b) = (a.unwrap(), b.unwrap());
    let blocking = common::embed(&["A man is eating food.", "car"]);
    assert!(max_diff(&a[0], &blocking[0]) < 1e-5 && max_diff(&a[1], &blocking[1]) < 1e-5);
    assert!(max_diff(&b[0], &a[1]) < 1e-4);
    assert!(model.embed(&[]).await.unwrap().is_empty());
}

#[test]
fn chunker_refuses_windows_beyond_the_model_limit() {
    assert!(model().chunker(ChunkerConfig { max_tokens: 255, overlap: 10 }).is_err());
    assert!(model().chunker(ChunkerConfig::default()).is_ok());
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max)
}

// ---- chunking ----

/// A document of a few thousand word pieces with accents, CJK, emoji, odd spacing and newlines.
fn document() -> String {
    let paragraphs = [
        "Die Überprüfung der naïve Café-Rechnung ergab 42,50 € — niemand war überrascht.",
        "東京は日本の首都です。 Rockets 🚀 launch   from   Cape Canaveral.\tTabs\tand  double  spaces.",
        "Reciprocal rank fusion combines BM25 keyword rankings with dense vector rankings (k = 60).",
        "Unbelievably, internationalisation-related hyphenated-compounds tokenise into many pieces.",
    ];
    let mut text = String::from("  ");
    for i in 0..60 {
        text.push_str(&format!("Paragraph {i}. {}\n\n", paragraphs[i % paragraphs.len()]));
    }
    text
}

fn check_invariants(text: &str, chunks: &[Chunk], config: ChunkerConfig) {
    assert!(!chunks.is_empty());
    for (i, c) in chunks.iter().enumerate() {
        assert_eq!(c.index, i);
        assert_eq!(c.text, text[c.byte_range.clone()], "chunk {i} is not the input slice");
        let by_chars: String = text.chars().skip(c.char_range.start).take(c.char_range.len()).collect();
        assert_eq!(by_chars, c.text, "chunk {i}: character offsets disagree with the text");
        assert!(c.token_count <= config.max_tokens);
        assert!(!c.text.starts_with(char::is_whitespace) && !c.text.ends_with(char::is_whitespace));
    }
    for pair in chunks.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(b.byte_range.start > a.byte_range.start, "chunks must advance");
        assert!(b.byte_range.start < a.byte_range.end, "chunks {} and {} do not overlap", a.index, b.index);
        assert_eq!(a.token_count, config.max_tokens, "only the last chunk may be short");
    }
    // Coverage: every non-whitespace character of the input lies in some chunk.
    for (pos, ch) in text.char_indices() {
        if !ch.is_whitespace() {
            assert!(
                chunks.iter().any(|c| c.byte_range.contains(&pos)),
                "character {ch:?} at byte {pos} is in no chunk"
            );
        }
    }
}

#[test]
fn default_chunks_overlap_cover_the_input_and_are_substrings() {
    let config = ChunkerConfig::default();
    assert_eq!((config.max_tokens, config.overlap), (200, 40));
    let chunker = model().chunker(config).unwrap();
    let text = document();
    let total = chunker.count_tokens(&text).unwrap();
    let chunks = chunker.chunk(&text).unwrap();
    println!("{total} word pieces -> {} chunks", chunks.len());
    check_invariants(&text, &chunks, config);
    // Windows advance by max_tokens - overlap word pieces.
    assert_eq!(chunks.len(), (total - config.overlap).div_ceil(config.max_tokens - config.overlap));
    // The overlap is the last 40 pieces of one chunk: re-tokenising that shared text finds ~40.
    let shared = &text[chunks[1].byte_range.start..chunks[0].byte_range.end];
    let shared_pieces = chunker.count_tokens(shared).unwrap();
    assert!((38..=42).contains(&shared_pieces), "overlap of {shared_pieces} pieces");
}

#[test]
fn other_sizes_and_small_inputs() {
    let chunker = model().chunker(ChunkerConfig { max_tokens: 16, overlap: 4 }).unwrap();
    let text = document();
    check_invariants(&text, &chunker.chunk(&text).unwrap(), chunker.config());

    let one = chunker.chunk("  A man is eating food.  ").unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].text, "A man is eating food.");
    assert_eq!(one[0].char_range, 2..23);
    assert!(chunker.chunk("").unwrap().is_empty());
    assert!(chunker.chunk(" \n\t ").unwrap().is_empty());
}

#[test]
fn every_chunk_embeds_without_truncation() {
    let chunker = model().chunker(ChunkerConfig::default()).unwrap();
    let chunks = chunker.chunk(&document()).unwrap();
    let texts: Vec<String> = chunks.iter().map(|c| c.text.clone()).collect();
    let vectors = model().embed_blocking(&texts).unwrap();
    assert_eq!(vectors.len(), chunks.len());
    for c in &chunks {
        // Re-tokenising a chunk can split its first word differently; it still fits the model.
        assert!(chunker.count_tokens(&c.text).unwrap() <= model().max_seq_length() - 2);
    }
}

#[test]
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn the_provisioned_model_runs_on_onnx_runtime_with_candles_vectors() {
    // ensure_model (in the common set-up) provisioned ONNX Runtime; the default options use it.
    assert_eq!(model().backend(), canvas_embed::Backend::OnnxRuntime);
    let candle = LocalEmbedder::load(
        &model_dir(),
        LocalModelOptions { backend: canvas_embed::Backend::Candle, ..Default::default() },
    )
    .unwrap();
    let texts: Vec<String> = [
        "",
        "a",
        "A man is eating food.",
        "Ünïcödé 東京 🚀",
        &"The boundary layer separates near the trailing edge of the wing. ".repeat(30),
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    let (new, old) = (model().embed_blocking(&texts).unwrap(), candle.embed_blocking(&texts).unwrap());
    for ((text, a), b) in texts.iter().zip(&new).zip(&old) {
        let cosine = cosine_similarity(a, b);
        assert!(cosine >= 0.9999, "{text:?}: onnx and candle vectors differ (cosine {cosine})");
    }
}
