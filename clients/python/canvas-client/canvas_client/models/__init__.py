"""Contains all the data models used in inputs/outputs"""

from .answer_response import AnswerResponse
from .arrange_request import ArrangeRequest
from .arrange_request_style import ArrangeRequestStyle
from .arrange_response import ArrangeResponse
from .arranged_item import ArrangedItem
from .bulk_created import BulkCreated
from .bulk_response import BulkResponse
from .citation_reference import CitationReference
from .connector_item import ConnectorItem
from .connector_item_corner_points_item import ConnectorItemCornerPointsItem
from .connector_item_end_point import ConnectorItemEndPoint
from .connector_item_end_point_absolute_position_type_0 import ConnectorItemEndPointAbsolutePositionType0
from .connector_item_end_point_position_type_0 import ConnectorItemEndPointPositionType0
from .connector_item_item_type import ConnectorItemItemType
from .connector_item_position import ConnectorItemPosition
from .connector_item_size import ConnectorItemSize
from .connector_item_start_point import ConnectorItemStartPoint
from .connector_item_start_point_absolute_position_type_0 import ConnectorItemStartPointAbsolutePositionType0
from .connector_item_start_point_position_type_0 import ConnectorItemStartPointPositionType0
from .create_connector_body import CreateConnectorBody
from .create_connector_body_corner_points_item import CreateConnectorBodyCornerPointsItem
from .create_connector_body_end_point import CreateConnectorBodyEndPoint
from .create_connector_body_end_point_position_type_0 import CreateConnectorBodyEndPointPositionType0
from .create_connector_body_start_point import CreateConnectorBodyStartPoint
from .create_connector_body_start_point_position_type_0 import CreateConnectorBodyStartPointPositionType0
from .create_diagram_body import CreateDiagramBody
from .create_diagram_body_format import CreateDiagramBodyFormat
from .create_image_body import CreateImageBody
from .create_image_body_position import CreateImageBodyPosition
from .create_image_body_size import CreateImageBodySize
from .create_items_body import CreateItemsBody
from .create_items_body_items_item import CreateItemsBodyItemsItem
from .create_items_body_items_item_properties_type_0 import CreateItemsBodyItemsItemPropertiesType0
from .create_items_body_items_item_type import CreateItemsBodyItemsItemType
from .create_label_body import CreateLabelBody
from .create_label_body_position import CreateLabelBodyPosition
from .create_label_body_size import CreateLabelBodySize
from .create_shape_body import CreateShapeBody
from .create_shape_body_position import CreateShapeBodyPosition
from .create_shape_body_size import CreateShapeBodySize
from .create_sticky_note_body import CreateStickyNoteBody
from .create_sticky_note_body_position import CreateStickyNoteBodyPosition
from .create_sticky_note_body_size import CreateStickyNoteBodySize
from .create_web_body import CreateWebBody
from .create_web_body_position import CreateWebBodyPosition
from .create_web_body_size import CreateWebBodySize
from .decorator import Decorator
from .delivery_attempt import DeliveryAttempt
from .delivery_list import DeliveryList
from .diagram_element import DiagramElement
from .diagram_listed import DiagramListed
from .diagram_page import DiagramPage
from .diagram_point import DiagramPoint
from .diagram_position import DiagramPosition
from .diagram_record import DiagramRecord
from .diagram_response import DiagramResponse
from .diagram_response_nodes import DiagramResponseNodes
from .diagram_write_response import DiagramWriteResponse
from .diagram_write_response_nodes import DiagramWriteResponseNodes
from .document_item import DocumentItem
from .document_item_item_type import DocumentItemItemType
from .document_item_position import DocumentItemPosition
from .document_item_size import DocumentItemSize
from .document_patch import DocumentPatch
from .document_patch_position_type_0 import DocumentPatchPositionType0
from .document_patch_size_type_0 import DocumentPatchSizeType0
from .event_kind import EventKind
from .exported_text import ExportedText
from .field_error import FieldError
from .field_error_reason import FieldErrorReason
from .file_upload import FileUpload
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .health import Health
from .health_status import HealthStatus
from .horizontal_text_alignment import HorizontalTextAlignment
from .image_item import ImageItem
from .image_item_item_type import ImageItemItemType
from .image_item_position import ImageItemPosition
from .image_item_size import ImageItemSize
from .image_mime_type import ImageMimeType
from .image_patch import ImagePatch
from .image_patch_position_type_0 import ImagePatchPositionType0
from .image_patch_size import ImagePatchSize
from .imported_project import ImportedProject
from .index_counts import IndexCounts
from .index_status import IndexStatus
from .index_status_page import IndexStatusPage
from .index_status_state import IndexStatusState
from .item_page import ItemPage
from .item_ref import ItemRef
from .json_casing import JsonCasing
from .jwk import Jwk
from .jwk_alg import JwkAlg
from .jwk_crv import JwkCrv
from .jwk_kty import JwkKty
from .jwk_set import JwkSet
from .jwk_use import JwkUse
from .label_item import LabelItem
from .label_item_item_type import LabelItemItemType
from .label_item_position import LabelItemPosition
from .label_item_size import LabelItemSize
from .label_patch import LabelPatch
from .label_patch_position_type_0 import LabelPatchPositionType0
from .label_patch_size_type_0 import LabelPatchSizeType0
from .line_type import LineType
from .parent_type_0 import ParentType0
from .presence_announcement import PresenceAnnouncement
from .presence_cursor import PresenceCursor
from .problem import Problem
from .problem_reason import ProblemReason
from .project_view import ProjectView
from .project_view_role import ProjectViewRole
from .redelivery import Redelivery
from .retrieve_knowledge_body import RetrieveKnowledgeBody
from .search_mode import SearchMode
from .shape_item import ShapeItem
from .shape_item_item_type import ShapeItemItemType
from .shape_item_position import ShapeItemPosition
from .shape_item_size import ShapeItemSize
from .shape_patch import ShapePatch
from .shape_patch_position_type_0 import ShapePatchPositionType0
from .shape_patch_size import ShapePatchSize
from .shape_type import ShapeType
from .sticky_note_item import StickyNoteItem
from .sticky_note_item_item_type import StickyNoteItemItemType
from .sticky_note_item_position import StickyNoteItemPosition
from .sticky_note_item_size import StickyNoteItemSize
from .sticky_note_patch import StickyNotePatch
from .sticky_note_patch_position_type_0 import StickyNotePatchPositionType0
from .sticky_note_patch_size_type_0 import StickyNotePatchSizeType0
from .svg_item import SvgItem
from .svg_item_item_type import SvgItemItemType
from .svg_item_position import SvgItemPosition
from .svg_item_size import SvgItemSize
from .svg_patch import SvgPatch
from .svg_patch_position_type_0 import SvgPatchPositionType0
from .svg_patch_size_type_0 import SvgPatchSizeType0
from .update_connector_body import UpdateConnectorBody
from .update_connector_body_properties import UpdateConnectorBodyProperties
from .update_connector_body_properties_corner_points_type_0_item import (
    UpdateConnectorBodyPropertiesCornerPointsType0Item,
)
from .update_connector_body_properties_end_point import UpdateConnectorBodyPropertiesEndPoint
from .update_connector_body_properties_end_point_position_type_0 import (
    UpdateConnectorBodyPropertiesEndPointPositionType0,
)
from .update_connector_body_properties_start_point import UpdateConnectorBodyPropertiesStartPoint
from .update_connector_body_properties_start_point_position_type_0 import (
    UpdateConnectorBodyPropertiesStartPointPositionType0,
)
from .update_diagram_body import UpdateDiagramBody
from .update_diagram_body_format import UpdateDiagramBodyFormat
from .vertical_text_alignment import VerticalTextAlignment
from .web_item import WebItem
from .web_item_item_type import WebItemItemType
from .web_item_position import WebItemPosition
from .web_item_size import WebItemSize
from .web_patch import WebPatch
from .web_patch_position_type_0 import WebPatchPositionType0
from .web_patch_size_type_0 import WebPatchSizeType0
from .webhook_definition import WebhookDefinition
from .webhook_list import WebhookList
from .webhook_record import WebhookRecord
from .webhook_record_inactive import WebhookRecordInactive
from .webhook_status import WebhookStatus
from .webhook_test_result import WebhookTestResult

__all__ = (
    "AnswerResponse",
    "ArrangedItem",
    "ArrangeRequest",
    "ArrangeRequestStyle",
    "ArrangeResponse",
    "BulkCreated",
    "BulkResponse",
    "CitationReference",
    "ConnectorItem",
    "ConnectorItemCornerPointsItem",
    "ConnectorItemEndPoint",
    "ConnectorItemEndPointAbsolutePositionType0",
    "ConnectorItemEndPointPositionType0",
    "ConnectorItemItemType",
    "ConnectorItemPosition",
    "ConnectorItemSize",
    "ConnectorItemStartPoint",
    "ConnectorItemStartPointAbsolutePositionType0",
    "ConnectorItemStartPointPositionType0",
    "CreateConnectorBody",
    "CreateConnectorBodyCornerPointsItem",
    "CreateConnectorBodyEndPoint",
    "CreateConnectorBodyEndPointPositionType0",
    "CreateConnectorBodyStartPoint",
    "CreateConnectorBodyStartPointPositionType0",
    "CreateDiagramBody",
    "CreateDiagramBodyFormat",
    "CreateImageBody",
    "CreateImageBodyPosition",
    "CreateImageBodySize",
    "CreateItemsBody",
    "CreateItemsBodyItemsItem",
    "CreateItemsBodyItemsItemPropertiesType0",
    "CreateItemsBodyItemsItemType",
    "CreateLabelBody",
    "CreateLabelBodyPosition",
    "CreateLabelBodySize",
    "CreateShapeBody",
    "CreateShapeBodyPosition",
    "CreateShapeBodySize",
    "CreateStickyNoteBody",
    "CreateStickyNoteBodyPosition",
    "CreateStickyNoteBodySize",
    "CreateWebBody",
    "CreateWebBodyPosition",
    "CreateWebBodySize",
    "Decorator",
    "DeliveryAttempt",
    "DeliveryList",
    "DiagramElement",
    "DiagramListed",
    "DiagramPage",
    "DiagramPoint",
    "DiagramPosition",
    "DiagramRecord",
    "DiagramResponse",
    "DiagramResponseNodes",
    "DiagramWriteResponse",
    "DiagramWriteResponseNodes",
    "DocumentItem",
    "DocumentItemItemType",
    "DocumentItemPosition",
    "DocumentItemSize",
    "DocumentPatch",
    "DocumentPatchPositionType0",
    "DocumentPatchSizeType0",
    "EventKind",
    "ExportedText",
    "FieldError",
    "FieldErrorReason",
    "FileUpload",
    "GetOpenApiDocumentResponse200",
    "Health",
    "HealthStatus",
    "HorizontalTextAlignment",
    "ImageItem",
    "ImageItemItemType",
    "ImageItemPosition",
    "ImageItemSize",
    "ImageMimeType",
    "ImagePatch",
    "ImagePatchPositionType0",
    "ImagePatchSize",
    "ImportedProject",
    "IndexCounts",
    "IndexStatus",
    "IndexStatusPage",
    "IndexStatusState",
    "ItemPage",
    "ItemRef",
    "JsonCasing",
    "Jwk",
    "JwkAlg",
    "JwkCrv",
    "JwkKty",
    "JwkSet",
    "JwkUse",
    "LabelItem",
    "LabelItemItemType",
    "LabelItemPosition",
    "LabelItemSize",
    "LabelPatch",
    "LabelPatchPositionType0",
    "LabelPatchSizeType0",
    "LineType",
    "ParentType0",
    "PresenceAnnouncement",
    "PresenceCursor",
    "Problem",
    "ProblemReason",
    "ProjectView",
    "ProjectViewRole",
    "Redelivery",
    "RetrieveKnowledgeBody",
    "SearchMode",
    "ShapeItem",
    "ShapeItemItemType",
    "ShapeItemPosition",
    "ShapeItemSize",
    "ShapePatch",
    "ShapePatchPositionType0",
    "ShapePatchSize",
    "ShapeType",
    "StickyNoteItem",
    "StickyNoteItemItemType",
    "StickyNoteItemPosition",
    "StickyNoteItemSize",
    "StickyNotePatch",
    "StickyNotePatchPositionType0",
    "StickyNotePatchSizeType0",
    "SvgItem",
    "SvgItemItemType",
    "SvgItemPosition",
    "SvgItemSize",
    "SvgPatch",
    "SvgPatchPositionType0",
    "SvgPatchSizeType0",
    "UpdateConnectorBody",
    "UpdateConnectorBodyProperties",
    "UpdateConnectorBodyPropertiesCornerPointsType0Item",
    "UpdateConnectorBodyPropertiesEndPoint",
    "UpdateConnectorBodyPropertiesEndPointPositionType0",
    "UpdateConnectorBodyPropertiesStartPoint",
    "UpdateConnectorBodyPropertiesStartPointPositionType0",
    "UpdateDiagramBody",
    "UpdateDiagramBodyFormat",
    "VerticalTextAlignment",
    "WebhookDefinition",
    "WebhookList",
    "WebhookRecord",
    "WebhookRecordInactive",
    "WebhookStatus",
    "WebhookTestResult",
    "WebItem",
    "WebItemItemType",
    "WebItemPosition",
    "WebItemSize",
    "WebPatch",
    "WebPatchPositionType0",
    "WebPatchSizeType0",
)
