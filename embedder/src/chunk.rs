//! Splitting a text into overlapping windows of model tokens.
//!
//! Windows are counted in the embedding model's word pieces so every chunk fits the model's
//! cut-off (nothing is silently truncated), and each chunk's text is cut from the original string
//! at token offsets, so it is an exact substring (original case, accents and spacing kept) and its
//! offsets can highlight the passage in the source.

use std::ops::Range;

use tokenizers::Tokenizer;

use crate::{EmbedError, Result};

/// Window size and overlap, in word pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkerConfig {
    /// Word pieces per chunk. 200 leaves room under all-MiniLM-L6-v2's 256 cut-off for the two
    /// special tokens and for tokenizers that split slightly differently.
    pub max_tokens: usize,
    /// Word pieces shared by consecutive chunks, so a sentence cut at a boundary is still whole in
    /// one of them. Must be smaller than `max_tokens`.
    pub overlap: usize,
}

impl Default for ChunkerConfig {
    fn default() -> Self {
        Self { max_tokens: 200, overlap: 40 }
    }
}

/// One window of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Position of the chunk in the document (0-based), so stored chunks keep their order.
    pub index: usize,
    /// The exact substring `input[byte_range]`, ready to embed and to show.
    pub text: String,
    /// Byte offsets into the input, for slicing in Rust.
    pub byte_range: Range<usize>,
    /// Character (Unicode scalar value) offsets into the input, for clients that count characters.
    pub char_range: Range<usize>,
    /// Word pieces in the chunk (at most `max_tokens`), for budgeting and statistics.
    pub token_count: usize,
}

/// Splits texts into overlapping token windows. Build one with [`crate::LocalEmbedder::chunker`]
/// (or [`Chunker::new`] with any `tokenizers` tokenizer). Cheap to share: `chunk` takes `&self`.
#[derive(Clone)]
pub struct Chunker {
    /// Tokenizer without truncation or padding: it must see the whole text.
    tokenizer: Tokenizer,
    /// Window size and overlap.
    config: ChunkerConfig,
}

impl std::fmt::Debug for Chunker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chunker").field("config", &self.config).finish_non_exhaustive()
    }
}

impl Chunker {
    /// Builds a chunker; truncation and padding are switched off on `tokenizer`.
    pub fn new(mut tokenizer: Tokenizer, config: ChunkerConfig) -> Result<Self> {
        if config.max_tokens == 0 {
            return Err(EmbedError::InvalidOptions("max_tokens must be at least 1".into()));
        }
        if config.overlap >= config.max_tokens {
            return Err(EmbedError::InvalidOptions(format!(
                "overlap ({}) must be smaller than max_tokens ({})",
                config.overlap, config.max_tokens
            )));
        }
        tokenizer.with_padding(None);
        tokenizer.with_truncation(None).map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(Self { tokenizer, config })
    }

    /// The window size and overlap in force.
    pub fn config(&self) -> ChunkerConfig {
        self.config
    }

    /// Splits `text` into chunks of at most `max_tokens` word pieces, consecutive chunks sharing
    /// `overlap` of them. A text without any token (empty, only spaces) gives no chunk.
    /// CPU-bound (tokenises the whole text): run large documents on a blocking thread.
    pub fn chunk(&self, text: &str) -> Result<Vec<Chunk>> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        // Byte offsets into `text`; the BERT normaliser maps them back through lower-casing etc.
        let offsets: Vec<(usize, usize)> = encoding.get_offsets().iter().copied().filter(|(s, e)| e > s).collect();
        if offsets.is_empty() {
            return Ok(Vec::new());
        }
        let step = self.config.max_tokens - self.config.overlap;
        let mut chunks = Vec::new();
        let mut start = 0;
        // Chunk starts only move forward, so character offsets are counted incrementally.
        let (mut seen_bytes, mut seen_chars) = (0usize, 0usize);
        loop {
            let end = (start + self.config.max_tokens).min(offsets.len());
            let byte_range = offsets[start].0..offsets[end - 1].1;
            let Some(slice) = text.get(byte_range.clone()) else {
                return Err(EmbedError::Tokenizer(format!(
                    "token offsets {byte_range:?} do not fall on character boundaries of the input"
                )));
            };
            seen_chars += text.get(seen_bytes..byte_range.start).map_or(0, |s| s.chars().count());
            seen_bytes = byte_range.start;
            let char_start = seen_chars;
            let char_range = char_start..char_start + slice.chars().count();
            chunks.push(Chunk {
                index: chunks.len(),
                text: slice.to_string(),
                byte_range,
                char_range,
                token_count: end - start,
            });
            if end == offsets.len() {
                break;
            }
            start += step;
        }
        Ok(chunks)
    }

    /// Number of word pieces in `text` (no special tokens), e.g. to decide whether to chunk.
    pub fn count_tokens(&self, text: &str) -> Result<usize> {
        let encoding = self.tokenizer.encode_fast(text, false).map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(encoding.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokenizers::models::wordlevel::WordLevel;
    use tokenizers::pre_tokenizers::whitespace::WhitespaceSplit;

    /// A word-per-token tokenizer, so window arithmetic can be checked without a model.
    fn word_tokenizer() -> Tokenizer {
        let vocab = [("[UNK]".to_string(), 0u32)].into_iter().collect();
        let model = WordLevel::builder().vocab(vocab).unk_token("[UNK]".into()).build().unwrap();
        let mut tokenizer = Tokenizer::new(model);
        tokenizer.with_pre_tokenizer(Some(WhitespaceSplit));
        tokenizer
    }

    #[test]
    fn windows_overlap_by_the_configured_count() {
        let chunker = Chunker::new(word_tokenizer(), ChunkerConfig { max_tokens: 4, overlap: 1 }).unwrap();
        let text = "zéro one two three four five six seven eight";
        let chunks = chunker.chunk(text).unwrap();
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["zéro one two three", "three four five six", "six seven eight"]);
        assert_eq!(chunks[1].char_range, 13..32);
        assert_eq!(chunks[2].char_range, 29..44);
        assert_eq!(&text[chunks[1].byte_range.clone()], "three four five six");
        assert_eq!(chunks[2].token_count, 3);
        assert!(chunker.chunk("   ").unwrap().is_empty());
        assert_eq!(chunker.count_tokens(text).unwrap(), 9);
    }

    #[test]
    fn invalid_configs_are_refused() {
        assert!(Chunker::new(word_tokenizer(), ChunkerConfig { max_tokens: 4, overlap: 4 }).is_err());
        assert!(Chunker::new(word_tokenizer(), ChunkerConfig { max_tokens: 0, overlap: 0 }).is_err());
    }
}
