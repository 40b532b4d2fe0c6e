//! The part of ONNX's `onnx.proto` that a BERT graph needs, as `prost` messages.
//!
//! Declared by hand (field numbers as in the ONNX IR specification) so no `protoc` and no `.proto`
//! file are needed at build time; fields this crate never writes are left out, which protobuf
//! allows: a reader sees them as absent.

/// `onnx.ModelProto`: the file ONNX Runtime loads.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ModelProto {
    /// IR version of the format (8 = ONNX 1.10+, understood by every ONNX Runtime we load).
    #[prost(int64, tag = "1")]
    pub ir_version: i64,
    /// Who wrote the file; shows up in ONNX Runtime's logs.
    #[prost(string, tag = "2")]
    pub producer_name: String,
    /// The graph to run.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// Operator sets the nodes bind to (the default domain and `com.microsoft`).
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
}

/// `onnx.OperatorSetIdProto`: one operator set and its version.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OperatorSetIdProto {
    /// Empty for the standard `ai.onnx` operators.
    #[prost(string, tag = "1")]
    pub domain: String,
    /// Operator-set version the nodes are written against.
    #[prost(int64, tag = "2")]
    pub version: i64,
}

/// `onnx.GraphProto`: nodes in topological order, weights, inputs and outputs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphProto {
    /// The computation, in an order where every input is produced before it is used.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// Graph name, for logs.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Constant tensors (the weights).
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// What the caller feeds.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// What the caller reads back.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
}

/// `onnx.NodeProto`: one operator application.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeProto {
    /// Names of the values consumed; an empty name skips an optional input.
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// Names of the values produced.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// Unique node name, for logs and profiles.
    #[prost(string, tag = "3")]
    pub name: String,
    /// Operator name (`MatMul`, `Attention`, …).
    #[prost(string, tag = "4")]
    pub op_type: String,
    /// Attribute values of the operator.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
    /// Operator set of `op_type`; empty for standard operators.
    #[prost(string, tag = "7")]
    pub domain: String,
}

/// `onnx.AttributeProto`, limited to the int, float and ints kinds (value fields are `optional` so
/// a zero is written, not dropped as a proto3 default).
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributeProto {
    /// Attribute name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Value when `kind` is FLOAT.
    #[prost(float, optional, tag = "2")]
    pub f: Option<f32>,
    /// Value when `kind` is INT.
    #[prost(int64, optional, tag = "3")]
    pub i: Option<i64>,
    /// Values when `kind` is INTS.
    #[prost(int64, repeated, tag = "8")]
    pub ints: Vec<i64>,
    /// Which value field is meant (the IR requires it): 1 FLOAT, 2 INT, 7 INTS.
    #[prost(int32, tag = "20")]
    pub kind: i32,
}

/// `onnx.TensorProto`: a named constant, data in `raw_data` (little-endian).
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorProto {
    /// Shape.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// Element type (1 FLOAT, 6 INT32, 7 INT64).
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    /// Name by which nodes refer to it.
    #[prost(string, tag = "8")]
    pub name: String,
    /// The elements, packed little-endian.
    #[prost(bytes = "vec", tag = "9")]
    pub raw_data: Vec<u8>,
}

/// `onnx.ValueInfoProto`: name and type of a graph input or output.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueInfoProto {
    /// Value name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its tensor type.
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
}

/// `onnx.TypeProto`, tensor case only.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TypeProto {
    /// Element type and shape.
    #[prost(message, optional, tag = "1")]
    pub tensor_type: Option<TensorTypeProto>,
}

/// `onnx.TypeProto.Tensor`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorTypeProto {
    /// Element type, as in [`TensorProto::data_type`].
    #[prost(int32, tag = "1")]
    pub elem_type: i32,
    /// Dimensions, named when they vary per call.
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// `onnx.TensorShapeProto`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorShapeProto {
    /// One entry per axis.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<Dimension>,
}

/// `onnx.TensorShapeProto.Dimension`: a fixed size or a symbolic name.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Dimension {
    /// Fixed size; written even when 0 (ONNX reads the first field set of this `oneof`).
    #[prost(int64, optional, tag = "1")]
    pub dim_value: Option<i64>,
    /// Symbolic size (`batch`, `sequence`) that varies per call.
    #[prost(string, optional, tag = "2")]
    pub dim_param: Option<String>,
}

/// `TensorProto.DataType.FLOAT`.
pub const FLOAT: i32 = 1;
/// `TensorProto.DataType.INT32`.
pub const INT32: i32 = 6;
/// `TensorProto.DataType.INT64`.
pub const INT64: i32 = 7;
