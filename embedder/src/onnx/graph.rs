//! Builds an ONNX graph of a BERT encoder from the model's own `model.safetensors`, in memory.
//!
//! Nothing is exported by Python or fetched: the weights are the pinned file, copied (linear
//! weights transposed for `MatMul`) into initializers of a graph written here. Two forms:
//! - [`GraphVariant::Fused`]: ONNX Runtime's CPU contrib operators (`com.microsoft`), one fused
//!   `Attention` (QKV projection, masked softmax, context) per layer, `SkipLayerNormalization`
//!   (residual + bias + layer norm) and `BiasGelu` — the graph ONNX Runtime's own transformer
//!   optimiser produces for BERT.
//! - [`GraphVariant::Standard`]: standard `ai.onnx` operators only (opset 20), left to ONNX
//!   Runtime's built-in graph optimisations; kept to compare against, and for runtimes without
//!   the contrib operators.
//!
//! Inputs: `input_ids` (int64, batch × sequence), `attention_mask` (int32, 1 for tokens, 0 for
//! padding), `position_ids` (int64, sequence). Output: `last_hidden_state` (float, batch ×
//! sequence × hidden). The token type is always 0 (single-segment sentence embeddings), so its
//! embedding row is added to the position embeddings once here.

use std::collections::HashMap;

use candle_core::{DType, Device, Tensor};
use candle_transformers::models::bert::{Config, HiddenAct};
use prost::Message;

use super::proto::*;
use crate::{EmbedError, Result};

/// Which operators the graph is written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GraphVariant {
    /// ONNX Runtime's fused CPU contrib operators (fastest measured; the default).
    #[default]
    Fused,
    /// Standard ONNX operators only, fused (or not) by ONNX Runtime's optimiser.
    Standard,
}

/// The ONNX model bytes for `config` with the weights of `safetensors`.
pub fn build(config: &Config, safetensors: &[u8], variant: GraphVariant) -> Result<Vec<u8>> {
    if config.hidden_act != HiddenAct::Gelu {
        return Err(EmbedError::InvalidOptions(format!(
            "the ONNX graph supports hidden_act \"gelu\" only, the model has {:?}",
            config.hidden_act
        )));
    }
    if config.num_attention_heads == 0 || !config.hidden_size.is_multiple_of(config.num_attention_heads) {
        return Err(EmbedError::InvalidOptions("hidden_size is not a multiple of num_attention_heads".into()));
    }
    let weights = Weights::read(safetensors)?;
    let mut g = Builder::default();
    let eps = config.layer_norm_eps as f32;

    // Embeddings: word + (position + token type 0), layer norm.
    let token_type = weights.get("embeddings.token_type_embeddings.weight")?.get(0)?;
    let positions = weights.get("embeddings.position_embeddings.weight")?.broadcast_add(&token_type)?;
    g.weight("word_embeddings", &weights.get("embeddings.word_embeddings.weight")?)?;
    g.weight("position_embeddings", &positions)?;
    g.weight("embeddings_ln_gamma", &weights.get("embeddings.LayerNorm.weight")?)?;
    g.weight("embeddings_ln_beta", &weights.get("embeddings.LayerNorm.bias")?)?;
    g.node("Gather", &["word_embeddings", "input_ids"], &["word"], vec![]);
    g.node("Gather", &["position_embeddings", "position_ids"], &["position"], vec![]);
    g.node("Add", &["word", "position"], &["embedded"], vec![]);
    g.layer_norm("embedded", "embeddings_ln", "layer_input_0", eps);

    if variant == GraphVariant::Standard {
        // Additive mask (batch, 1, 1, sequence): 0 for tokens, a large negative value for padding.
        g.constant_f32("one", &[], &[1.0]);
        g.constant_f32("mask_fill", &[], &[-10000.0]);
        g.constant_i64("mask_axes", &[2], &[1, 2]);
        g.node("Cast", &["attention_mask"], &["mask_float"], vec![int("to", FLOAT as i64)]);
        g.node("Sub", &["one", "mask_float"], &["mask_inverted"], vec![]);
        g.node("Mul", &["mask_inverted", "mask_fill"], &["mask_bias_2d"], vec![]);
        g.node("Unsqueeze", &["mask_bias_2d", "mask_axes"], &["mask_bias"], vec![]);
        let head = (config.hidden_size / config.num_attention_heads) as i64;
        g.constant_i64("heads_shape", &[4], &[0, 0, config.num_attention_heads as i64, head]);
        g.constant_i64("hidden_shape", &[3], &[0, 0, config.hidden_size as i64]);
        g.constant_f32("score_scale", &[], &[1.0 / (head as f32).sqrt()]);
    }

    for layer in 0..config.num_hidden_layers {
        let p = format!("encoder.layer.{layer}");
        let x = format!("layer_input_{layer}");
        let l = |s: &str| format!("l{layer}_{s}");
        let linear_t = |name: &str| -> Result<Tensor> { Ok(weights.get(&format!("{p}.{name}.weight"))?.t()?) };
        let bias = |name: &str| weights.get(&format!("{p}.{name}.bias"));

        let attended = match variant {
            GraphVariant::Fused => {
                let qkv_w = Tensor::cat(
                    &[
                        linear_t("attention.self.query")?,
                        linear_t("attention.self.key")?,
                        linear_t("attention.self.value")?,
                    ],
                    1,
                )?;
                let qkv_b = Tensor::cat(
                    &[bias("attention.self.query")?, bias("attention.self.key")?, bias("attention.self.value")?],
                    0,
                )?;
                g.weight(&l("qkv_w"), &qkv_w)?;
                g.weight(&l("qkv_b"), &qkv_b)?;
                g.contrib(
                    "Attention",
                    &[&x, &l("qkv_w"), &l("qkv_b"), "attention_mask"],
                    &[&l("context")],
                    vec![int("num_heads", config.num_attention_heads as i64)],
                );
                l("context")
            }
            GraphVariant::Standard => {
                for (part, perm) in [("query", [0, 2, 1, 3]), ("key", [0, 2, 3, 1]), ("value", [0, 2, 1, 3])] {
                    g.weight(&l(&format!("{part}_w")), &linear_t(&format!("attention.self.{part}"))?)?;
                    g.weight(&l(&format!("{part}_b")), &bias(&format!("attention.self.{part}"))?)?;
                    g.linear(&x, &l(part), &l(&format!("{part}_proj")));
                    g.node(
                        "Reshape",
                        &[&l(&format!("{part}_proj")), "heads_shape"],
                        &[&l(&format!("{part}_split"))],
                        vec![],
                    );
                    g.node(
                        "Transpose",
                        &[&l(&format!("{part}_split"))],
                        &[&l(&format!("{part}_heads"))],
                        vec![ints("perm", &perm)],
                    );
                }
                g.node("MatMul", &[&l("query_heads"), &l("key_heads")], &[&l("scores_raw")], vec![]);
                g.node("Mul", &[&l("scores_raw"), "score_scale"], &[&l("scores_scaled")], vec![]);
                g.node("Add", &[&l("scores_scaled"), "mask_bias"], &[&l("scores")], vec![]);
                g.node("Softmax", &[&l("scores")], &[&l("probs")], vec![int("axis", -1)]);
                g.node("MatMul", &[&l("probs"), &l("value_heads")], &[&l("context_heads")], vec![]);
                g.node("Transpose", &[&l("context_heads")], &[&l("context_split")], vec![ints("perm", &[0, 2, 1, 3])]);
                g.node("Reshape", &[&l("context_split"), "hidden_shape"], &[&l("context")], vec![]);
                l("context")
            }
        };

        g.weight(&l("attn_out_w"), &linear_t("attention.output.dense")?)?;
        g.weight(&l("attn_out_b"), &bias("attention.output.dense")?)?;
        g.weight(&l("attn_ln_gamma"), &weights.get(&format!("{p}.attention.output.LayerNorm.weight"))?)?;
        g.weight(&l("attn_ln_beta"), &weights.get(&format!("{p}.attention.output.LayerNorm.bias"))?)?;
        g.weight(&l("ffn_in_w"), &linear_t("intermediate.dense")?)?;
        g.weight(&l("ffn_in_b"), &bias("intermediate.dense")?)?;
        g.weight(&l("ffn_out_w"), &linear_t("output.dense")?)?;
        g.weight(&l("ffn_out_b"), &bias("output.dense")?)?;
        g.weight(&l("ffn_ln_gamma"), &weights.get(&format!("{p}.output.LayerNorm.weight"))?)?;
        g.weight(&l("ffn_ln_beta"), &weights.get(&format!("{p}.output.LayerNorm.bias"))?)?;
        let next = format!("layer_input_{}", layer + 1);

        g.node("MatMul", &[&attended, &l("attn_out_w")], &[&l("attn_proj")], vec![]);
        g.residual_layer_norm(variant, &l("attn_proj"), &x, &l("attn_out_b"), &l("attn_ln"), &l("attn_normed"), eps);
        g.node("MatMul", &[&l("attn_normed"), &l("ffn_in_w")], &[&l("ffn_in")], vec![]);
        match variant {
            GraphVariant::Fused => g.contrib("BiasGelu", &[&l("ffn_in"), &l("ffn_in_b")], &[&l("ffn_act")], vec![]),
            GraphVariant::Standard => {
                g.node("Add", &[&l("ffn_in"), &l("ffn_in_b")], &[&l("ffn_biased")], vec![]);
                g.node("Gelu", &[&l("ffn_biased")], &[&l("ffn_act")], vec![]);
            }
        }
        g.node("MatMul", &[&l("ffn_act"), &l("ffn_out_w")], &[&l("ffn_proj")], vec![]);
        g.residual_layer_norm(variant, &l("ffn_proj"), &l("attn_normed"), &l("ffn_out_b"), &l("ffn_ln"), &next, eps);
    }
    let last = format!("layer_input_{}", config.num_hidden_layers);
    g.node("Identity", &[&last], &["last_hidden_state"], vec![]);
    Ok(g.finish(config.hidden_size))
}

/// The safetensors file as candle tensors, tolerating the `bert.` prefix some uploads carry.
struct Weights {
    /// Tensors by name, converted to f32 on first use.
    tensors: HashMap<String, Tensor>,
    /// `""` or `"bert."`, whichever the file uses.
    prefix: &'static str,
}

impl Weights {
    fn read(bytes: &[u8]) -> Result<Self> {
        let tensors = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)?;
        let prefix = if tensors.contains_key("embeddings.word_embeddings.weight") { "" } else { "bert." };
        Ok(Self { tensors, prefix })
    }

    fn get(&self, name: &str) -> Result<Tensor> {
        let key = format!("{}{name}", self.prefix);
        let tensor = self
            .tensors
            .get(&key)
            .ok_or_else(|| EmbedError::InvalidOptions(format!("model.safetensors has no tensor {key}")))?;
        Ok(tensor.to_dtype(DType::F32)?)
    }
}

/// Collects nodes and initializers, naming nodes after their first output.
#[derive(Default)]
struct Builder {
    /// Nodes in the order added, which is a topological order by construction.
    nodes: Vec<NodeProto>,
    /// Weights and constants.
    initializers: Vec<TensorProto>,
}

fn int(name: &str, value: i64) -> AttributeProto {
    AttributeProto { name: name.into(), i: Some(value), kind: 2, ..Default::default() }
}

fn float(name: &str, value: f32) -> AttributeProto {
    AttributeProto { name: name.into(), f: Some(value), kind: 1, ..Default::default() }
}

fn ints(name: &str, values: &[i64]) -> AttributeProto {
    AttributeProto { name: name.into(), ints: values.to_vec(), kind: 7, ..Default::default() }
}

impl Builder {
    fn push(&mut self, domain: &str, op: &str, inputs: &[&str], outputs: &[&str], attribute: Vec<AttributeProto>) {
        self.nodes.push(NodeProto {
            input: inputs.iter().map(|s| s.to_string()).collect(),
            output: outputs.iter().map(|s| s.to_string()).collect(),
            name: format!("{op}:{}", outputs[0]),
            op_type: op.into(),
            attribute,
            domain: domain.into(),
        });
    }

    fn node(&mut self, op: &str, inputs: &[&str], outputs: &[&str], attribute: Vec<AttributeProto>) {
        self.push("", op, inputs, outputs, attribute);
    }

    fn contrib(&mut self, op: &str, inputs: &[&str], outputs: &[&str], attribute: Vec<AttributeProto>) {
        self.push("com.microsoft", op, inputs, outputs, attribute);
    }

    /// `output = input · {name}_w + {name}_b`.
    fn linear(&mut self, input: &str, name: &str, output: &str) {
        let product = format!("{output}_nobias");
        self.node("MatMul", &[input, &format!("{name}_w")], &[&product], vec![]);
        self.node("Add", &[&product, &format!("{name}_b")], &[output], vec![]);
    }

    fn layer_norm(&mut self, input: &str, name: &str, output: &str, eps: f32) {
        let (gamma, beta) = (format!("{name}_gamma"), format!("{name}_beta"));
        self.node(
            "LayerNormalization",
            &[input, &gamma, &beta],
            &[output],
            vec![int("axis", -1), float("epsilon", eps)],
        );
    }

    /// `output = LayerNorm(input + bias + skip)`: one contrib operator, or three standard ones.
    #[allow(clippy::too_many_arguments)]
    fn residual_layer_norm(
        &mut self,
        variant: GraphVariant,
        input: &str,
        skip: &str,
        bias: &str,
        ln: &str,
        output: &str,
        eps: f32,
    ) {
        let (gamma, beta) = (format!("{ln}_gamma"), format!("{ln}_beta"));
        match variant {
            GraphVariant::Fused => self.contrib(
                "SkipLayerNormalization",
                &[input, skip, &gamma, &beta, bias],
                &[output],
                vec![float("epsilon", eps)],
            ),
            GraphVariant::Standard => {
                let (biased, summed) = (format!("{output}_biased"), format!("{output}_sum"));
                self.node("Add", &[input, bias], &[&biased], vec![]);
                self.node("Add", &[&biased, skip], &[&summed], vec![]);
                self.layer_norm(&summed, ln, output, eps);
            }
        }
    }

    fn weight(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let dims: Vec<usize> = tensor.dims().to_vec();
        let values = tensor.contiguous()?.flatten_all()?.to_vec1::<f32>()?;
        self.constant_f32(name, &dims, &values);
        Ok(())
    }

    fn constant_f32(&mut self, name: &str, dims: &[usize], values: &[f32]) {
        let raw_data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, dims, FLOAT, raw_data);
    }

    fn constant_i64(&mut self, name: &str, dims: &[usize], values: &[i64]) {
        let raw_data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, dims, INT64, raw_data);
    }

    fn constant(&mut self, name: &str, dims: &[usize], data_type: i32, raw_data: Vec<u8>) {
        let dims = dims.iter().map(|&d| d as i64).collect();
        self.initializers.push(TensorProto { dims, data_type, name: name.into(), raw_data });
    }

    fn finish(self, hidden: usize) -> Vec<u8> {
        let named = |n: &str| Dimension { dim_param: Some(n.into()), dim_value: None };
        let fixed = |v: usize| Dimension { dim_value: Some(v as i64), dim_param: None };
        let value = |name: &str, elem_type: i32, dim: Vec<Dimension>| ValueInfoProto {
            name: name.into(),
            r#type: Some(TypeProto {
                tensor_type: Some(TensorTypeProto { elem_type, shape: Some(TensorShapeProto { dim }) }),
            }),
        };
        let graph = GraphProto {
            node: self.nodes,
            name: "bert_encoder".into(),
            initializer: self.initializers,
            input: vec![
                value("input_ids", INT64, vec![named("batch"), named("sequence")]),
                value("attention_mask", INT32, vec![named("batch"), named("sequence")]),
                value("position_ids", INT64, vec![named("sequence")]),
            ],
            output: vec![value("last_hidden_state", FLOAT, vec![named("batch"), named("sequence"), fixed(hidden)])],
        };
        let model = ModelProto {
            ir_version: 9,
            producer_name: "canvas-embed".into(),
            graph: Some(graph),
            opset_import: vec![
                OperatorSetIdProto { domain: String::new(), version: 20 },
                OperatorSetIdProto { domain: "com.microsoft".into(), version: 1 },
            ],
        };
        model.encode_to_vec()
    }
}
