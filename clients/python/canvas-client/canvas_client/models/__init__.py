"""Contains all the data models used in inputs/outputs"""

from .answer_response import AnswerResponse
from .arrange_request import ArrangeRequest
from .arrange_request_style import ArrangeRequestStyle
from .arrange_response import ArrangeResponse
from .arranged_item import ArrangedItem
from .bulk_created import BulkCreated
from .bulk_response import BulkResponse
from .citation_reference import CitationReference
from .comment import Comment
from .comment_point import CommentPoint
from .comment_position import CommentPosition
from .comment_thread import CommentThread
from .comments_deleted import CommentsDeleted
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
from .delivery_recovery import DeliveryRecovery
from .delivery_recovery_state import DeliveryRecoveryState
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
from .event_type import EventType
from .event_type_list import EventTypeList
from .event_type_name import EventTypeName
from .event_type_schema import EventTypeSchema
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
from .presence_viewport import PresenceViewport
from .problem import Problem
from .problem_reason import ProblemReason
from .project_role import ProjectRole
from .project_view import ProjectView
from .recover_request import RecoverRequest
from .redelivery import Redelivery
from .reply_request import ReplyRequest
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
from .tag import Tag
from .tag_deleted import TagDeleted
from .tag_list import TagList
from .tag_request import TagRequest
from .thread_change import ThreadChange
from .thread_page import ThreadPage
from .thread_request import ThreadRequest
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
from .webhook_payload_comment_created import WebhookPayloadCommentCreated
from .webhook_payload_comment_created_change import WebhookPayloadCommentCreatedChange
from .webhook_payload_comment_created_change_new import WebhookPayloadCommentCreatedChangeNew
from .webhook_payload_comment_created_change_new_position_type_0 import (
    WebhookPayloadCommentCreatedChangeNewPositionType0,
)
from .webhook_payload_comment_created_change_subject import WebhookPayloadCommentCreatedChangeSubject
from .webhook_payload_comment_deleted import WebhookPayloadCommentDeleted
from .webhook_payload_comment_deleted_change import WebhookPayloadCommentDeletedChange
from .webhook_payload_comment_deleted_change_old import WebhookPayloadCommentDeletedChangeOld
from .webhook_payload_comment_deleted_change_old_position_type_0 import (
    WebhookPayloadCommentDeletedChangeOldPositionType0,
)
from .webhook_payload_comment_deleted_change_subject import WebhookPayloadCommentDeletedChangeSubject
from .webhook_payload_comment_resolved import WebhookPayloadCommentResolved
from .webhook_payload_comment_resolved_change import WebhookPayloadCommentResolvedChange
from .webhook_payload_comment_resolved_change_new import WebhookPayloadCommentResolvedChangeNew
from .webhook_payload_comment_resolved_change_new_position_type_0 import (
    WebhookPayloadCommentResolvedChangeNewPositionType0,
)
from .webhook_payload_comment_resolved_change_old import WebhookPayloadCommentResolvedChangeOld
from .webhook_payload_comment_resolved_change_old_position_type_0 import (
    WebhookPayloadCommentResolvedChangeOldPositionType0,
)
from .webhook_payload_comment_resolved_change_subject import WebhookPayloadCommentResolvedChangeSubject
from .webhook_payload_comment_updated import WebhookPayloadCommentUpdated
from .webhook_payload_comment_updated_change import WebhookPayloadCommentUpdatedChange
from .webhook_payload_comment_updated_change_new import WebhookPayloadCommentUpdatedChangeNew
from .webhook_payload_comment_updated_change_new_position_type_0 import (
    WebhookPayloadCommentUpdatedChangeNewPositionType0,
)
from .webhook_payload_comment_updated_change_old import WebhookPayloadCommentUpdatedChangeOld
from .webhook_payload_comment_updated_change_old_position_type_0 import (
    WebhookPayloadCommentUpdatedChangeOldPositionType0,
)
from .webhook_payload_comment_updated_change_subject import WebhookPayloadCommentUpdatedChangeSubject
from .webhook_payload_item_created import WebhookPayloadItemCreated
from .webhook_payload_item_created_connector_change import WebhookPayloadItemCreatedConnectorChange
from .webhook_payload_item_created_connector_change_new import WebhookPayloadItemCreatedConnectorChangeNew
from .webhook_payload_item_created_connector_change_new_corner_points_item import (
    WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem,
)
from .webhook_payload_item_created_connector_change_new_end_point import (
    WebhookPayloadItemCreatedConnectorChangeNewEndPoint,
)
from .webhook_payload_item_created_connector_change_new_end_point_absolute_position_type_0 import (
    WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0,
)
from .webhook_payload_item_created_connector_change_new_end_point_position_type_0 import (
    WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0,
)
from .webhook_payload_item_created_connector_change_new_start_point import (
    WebhookPayloadItemCreatedConnectorChangeNewStartPoint,
)
from .webhook_payload_item_created_connector_change_new_start_point_absolute_position_type_0 import (
    WebhookPayloadItemCreatedConnectorChangeNewStartPointAbsolutePositionType0,
)
from .webhook_payload_item_created_connector_change_new_start_point_position_type_0 import (
    WebhookPayloadItemCreatedConnectorChangeNewStartPointPositionType0,
)
from .webhook_payload_item_created_connector_change_subject import WebhookPayloadItemCreatedConnectorChangeSubject
from .webhook_payload_item_created_document_change import WebhookPayloadItemCreatedDocumentChange
from .webhook_payload_item_created_document_change_new import WebhookPayloadItemCreatedDocumentChangeNew
from .webhook_payload_item_created_document_change_new_position import (
    WebhookPayloadItemCreatedDocumentChangeNewPosition,
)
from .webhook_payload_item_created_document_change_new_size import WebhookPayloadItemCreatedDocumentChangeNewSize
from .webhook_payload_item_created_document_change_subject import WebhookPayloadItemCreatedDocumentChangeSubject
from .webhook_payload_item_created_image_change import WebhookPayloadItemCreatedImageChange
from .webhook_payload_item_created_image_change_new import WebhookPayloadItemCreatedImageChangeNew
from .webhook_payload_item_created_image_change_new_position import WebhookPayloadItemCreatedImageChangeNewPosition
from .webhook_payload_item_created_image_change_new_size import WebhookPayloadItemCreatedImageChangeNewSize
from .webhook_payload_item_created_image_change_subject import WebhookPayloadItemCreatedImageChangeSubject
from .webhook_payload_item_created_label_change import WebhookPayloadItemCreatedLabelChange
from .webhook_payload_item_created_label_change_new import WebhookPayloadItemCreatedLabelChangeNew
from .webhook_payload_item_created_label_change_new_position import WebhookPayloadItemCreatedLabelChangeNewPosition
from .webhook_payload_item_created_label_change_new_size import WebhookPayloadItemCreatedLabelChangeNewSize
from .webhook_payload_item_created_label_change_subject import WebhookPayloadItemCreatedLabelChangeSubject
from .webhook_payload_item_created_shape_change import WebhookPayloadItemCreatedShapeChange
from .webhook_payload_item_created_shape_change_new import WebhookPayloadItemCreatedShapeChangeNew
from .webhook_payload_item_created_shape_change_new_position import WebhookPayloadItemCreatedShapeChangeNewPosition
from .webhook_payload_item_created_shape_change_new_size import WebhookPayloadItemCreatedShapeChangeNewSize
from .webhook_payload_item_created_shape_change_subject import WebhookPayloadItemCreatedShapeChangeSubject
from .webhook_payload_item_created_sticky_note_change import WebhookPayloadItemCreatedStickyNoteChange
from .webhook_payload_item_created_sticky_note_change_new import WebhookPayloadItemCreatedStickyNoteChangeNew
from .webhook_payload_item_created_sticky_note_change_new_position import (
    WebhookPayloadItemCreatedStickyNoteChangeNewPosition,
)
from .webhook_payload_item_created_sticky_note_change_new_size import WebhookPayloadItemCreatedStickyNoteChangeNewSize
from .webhook_payload_item_created_sticky_note_change_subject import WebhookPayloadItemCreatedStickyNoteChangeSubject
from .webhook_payload_item_created_svg_change import WebhookPayloadItemCreatedSvgChange
from .webhook_payload_item_created_svg_change_new import WebhookPayloadItemCreatedSvgChangeNew
from .webhook_payload_item_created_svg_change_new_position import WebhookPayloadItemCreatedSvgChangeNewPosition
from .webhook_payload_item_created_svg_change_new_size import WebhookPayloadItemCreatedSvgChangeNewSize
from .webhook_payload_item_created_svg_change_subject import WebhookPayloadItemCreatedSvgChangeSubject
from .webhook_payload_item_created_web_change import WebhookPayloadItemCreatedWebChange
from .webhook_payload_item_created_web_change_new import WebhookPayloadItemCreatedWebChangeNew
from .webhook_payload_item_created_web_change_new_position import WebhookPayloadItemCreatedWebChangeNewPosition
from .webhook_payload_item_created_web_change_new_size import WebhookPayloadItemCreatedWebChangeNewSize
from .webhook_payload_item_created_web_change_subject import WebhookPayloadItemCreatedWebChangeSubject
from .webhook_payload_item_deleted import WebhookPayloadItemDeleted
from .webhook_payload_item_deleted_connector_change import WebhookPayloadItemDeletedConnectorChange
from .webhook_payload_item_deleted_connector_change_old import WebhookPayloadItemDeletedConnectorChangeOld
from .webhook_payload_item_deleted_connector_change_old_corner_points_item import (
    WebhookPayloadItemDeletedConnectorChangeOldCornerPointsItem,
)
from .webhook_payload_item_deleted_connector_change_old_end_point import (
    WebhookPayloadItemDeletedConnectorChangeOldEndPoint,
)
from .webhook_payload_item_deleted_connector_change_old_end_point_absolute_position_type_0 import (
    WebhookPayloadItemDeletedConnectorChangeOldEndPointAbsolutePositionType0,
)
from .webhook_payload_item_deleted_connector_change_old_end_point_position_type_0 import (
    WebhookPayloadItemDeletedConnectorChangeOldEndPointPositionType0,
)
from .webhook_payload_item_deleted_connector_change_old_start_point import (
    WebhookPayloadItemDeletedConnectorChangeOldStartPoint,
)
from .webhook_payload_item_deleted_connector_change_old_start_point_absolute_position_type_0 import (
    WebhookPayloadItemDeletedConnectorChangeOldStartPointAbsolutePositionType0,
)
from .webhook_payload_item_deleted_connector_change_old_start_point_position_type_0 import (
    WebhookPayloadItemDeletedConnectorChangeOldStartPointPositionType0,
)
from .webhook_payload_item_deleted_connector_change_subject import WebhookPayloadItemDeletedConnectorChangeSubject
from .webhook_payload_item_deleted_document_change import WebhookPayloadItemDeletedDocumentChange
from .webhook_payload_item_deleted_document_change_old import WebhookPayloadItemDeletedDocumentChangeOld
from .webhook_payload_item_deleted_document_change_old_position import (
    WebhookPayloadItemDeletedDocumentChangeOldPosition,
)
from .webhook_payload_item_deleted_document_change_old_size import WebhookPayloadItemDeletedDocumentChangeOldSize
from .webhook_payload_item_deleted_document_change_subject import WebhookPayloadItemDeletedDocumentChangeSubject
from .webhook_payload_item_deleted_image_change import WebhookPayloadItemDeletedImageChange
from .webhook_payload_item_deleted_image_change_old import WebhookPayloadItemDeletedImageChangeOld
from .webhook_payload_item_deleted_image_change_old_position import WebhookPayloadItemDeletedImageChangeOldPosition
from .webhook_payload_item_deleted_image_change_old_size import WebhookPayloadItemDeletedImageChangeOldSize
from .webhook_payload_item_deleted_image_change_subject import WebhookPayloadItemDeletedImageChangeSubject
from .webhook_payload_item_deleted_label_change import WebhookPayloadItemDeletedLabelChange
from .webhook_payload_item_deleted_label_change_old import WebhookPayloadItemDeletedLabelChangeOld
from .webhook_payload_item_deleted_label_change_old_position import WebhookPayloadItemDeletedLabelChangeOldPosition
from .webhook_payload_item_deleted_label_change_old_size import WebhookPayloadItemDeletedLabelChangeOldSize
from .webhook_payload_item_deleted_label_change_subject import WebhookPayloadItemDeletedLabelChangeSubject
from .webhook_payload_item_deleted_shape_change import WebhookPayloadItemDeletedShapeChange
from .webhook_payload_item_deleted_shape_change_old import WebhookPayloadItemDeletedShapeChangeOld
from .webhook_payload_item_deleted_shape_change_old_position import WebhookPayloadItemDeletedShapeChangeOldPosition
from .webhook_payload_item_deleted_shape_change_old_size import WebhookPayloadItemDeletedShapeChangeOldSize
from .webhook_payload_item_deleted_shape_change_subject import WebhookPayloadItemDeletedShapeChangeSubject
from .webhook_payload_item_deleted_sticky_note_change import WebhookPayloadItemDeletedStickyNoteChange
from .webhook_payload_item_deleted_sticky_note_change_old import WebhookPayloadItemDeletedStickyNoteChangeOld
from .webhook_payload_item_deleted_sticky_note_change_old_position import (
    WebhookPayloadItemDeletedStickyNoteChangeOldPosition,
)
from .webhook_payload_item_deleted_sticky_note_change_old_size import WebhookPayloadItemDeletedStickyNoteChangeOldSize
from .webhook_payload_item_deleted_sticky_note_change_subject import WebhookPayloadItemDeletedStickyNoteChangeSubject
from .webhook_payload_item_deleted_svg_change import WebhookPayloadItemDeletedSvgChange
from .webhook_payload_item_deleted_svg_change_old import WebhookPayloadItemDeletedSvgChangeOld
from .webhook_payload_item_deleted_svg_change_old_position import WebhookPayloadItemDeletedSvgChangeOldPosition
from .webhook_payload_item_deleted_svg_change_old_size import WebhookPayloadItemDeletedSvgChangeOldSize
from .webhook_payload_item_deleted_svg_change_subject import WebhookPayloadItemDeletedSvgChangeSubject
from .webhook_payload_item_deleted_web_change import WebhookPayloadItemDeletedWebChange
from .webhook_payload_item_deleted_web_change_old import WebhookPayloadItemDeletedWebChangeOld
from .webhook_payload_item_deleted_web_change_old_position import WebhookPayloadItemDeletedWebChangeOldPosition
from .webhook_payload_item_deleted_web_change_old_size import WebhookPayloadItemDeletedWebChangeOldSize
from .webhook_payload_item_deleted_web_change_subject import WebhookPayloadItemDeletedWebChangeSubject
from .webhook_payload_item_updated import WebhookPayloadItemUpdated
from .webhook_payload_item_updated_connector_change import WebhookPayloadItemUpdatedConnectorChange
from .webhook_payload_item_updated_connector_change_new import WebhookPayloadItemUpdatedConnectorChangeNew
from .webhook_payload_item_updated_connector_change_new_corner_points_type_0_item import (
    WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item,
)
from .webhook_payload_item_updated_connector_change_new_end_point_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0,
)
from .webhook_payload_item_updated_connector_change_new_end_point_type_0_absolute_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0AbsolutePositionType0,
)
from .webhook_payload_item_updated_connector_change_new_end_point_type_0_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0PositionType0,
)
from .webhook_payload_item_updated_connector_change_new_start_point_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0,
)
from .webhook_payload_item_updated_connector_change_new_start_point_type_0_absolute_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0AbsolutePositionType0,
)
from .webhook_payload_item_updated_connector_change_new_start_point_type_0_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0PositionType0,
)
from .webhook_payload_item_updated_connector_change_old import WebhookPayloadItemUpdatedConnectorChangeOld
from .webhook_payload_item_updated_connector_change_old_corner_points_type_0_item import (
    WebhookPayloadItemUpdatedConnectorChangeOldCornerPointsType0Item,
)
from .webhook_payload_item_updated_connector_change_old_end_point_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeOldEndPointType0,
)
from .webhook_payload_item_updated_connector_change_old_end_point_type_0_absolute_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeOldEndPointType0AbsolutePositionType0,
)
from .webhook_payload_item_updated_connector_change_old_end_point_type_0_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeOldEndPointType0PositionType0,
)
from .webhook_payload_item_updated_connector_change_old_start_point_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeOldStartPointType0,
)
from .webhook_payload_item_updated_connector_change_old_start_point_type_0_absolute_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeOldStartPointType0AbsolutePositionType0,
)
from .webhook_payload_item_updated_connector_change_old_start_point_type_0_position_type_0 import (
    WebhookPayloadItemUpdatedConnectorChangeOldStartPointType0PositionType0,
)
from .webhook_payload_item_updated_connector_change_subject import WebhookPayloadItemUpdatedConnectorChangeSubject
from .webhook_payload_item_updated_document_change import WebhookPayloadItemUpdatedDocumentChange
from .webhook_payload_item_updated_document_change_new import WebhookPayloadItemUpdatedDocumentChangeNew
from .webhook_payload_item_updated_document_change_new_position_type_0 import (
    WebhookPayloadItemUpdatedDocumentChangeNewPositionType0,
)
from .webhook_payload_item_updated_document_change_new_size_type_0 import (
    WebhookPayloadItemUpdatedDocumentChangeNewSizeType0,
)
from .webhook_payload_item_updated_document_change_old import WebhookPayloadItemUpdatedDocumentChangeOld
from .webhook_payload_item_updated_document_change_old_position_type_0 import (
    WebhookPayloadItemUpdatedDocumentChangeOldPositionType0,
)
from .webhook_payload_item_updated_document_change_old_size_type_0 import (
    WebhookPayloadItemUpdatedDocumentChangeOldSizeType0,
)
from .webhook_payload_item_updated_document_change_subject import WebhookPayloadItemUpdatedDocumentChangeSubject
from .webhook_payload_item_updated_image_change import WebhookPayloadItemUpdatedImageChange
from .webhook_payload_item_updated_image_change_new import WebhookPayloadItemUpdatedImageChangeNew
from .webhook_payload_item_updated_image_change_new_position_type_0 import (
    WebhookPayloadItemUpdatedImageChangeNewPositionType0,
)
from .webhook_payload_item_updated_image_change_new_size_type_0 import WebhookPayloadItemUpdatedImageChangeNewSizeType0
from .webhook_payload_item_updated_image_change_old import WebhookPayloadItemUpdatedImageChangeOld
from .webhook_payload_item_updated_image_change_old_position_type_0 import (
    WebhookPayloadItemUpdatedImageChangeOldPositionType0,
)
from .webhook_payload_item_updated_image_change_old_size_type_0 import WebhookPayloadItemUpdatedImageChangeOldSizeType0
from .webhook_payload_item_updated_image_change_subject import WebhookPayloadItemUpdatedImageChangeSubject
from .webhook_payload_item_updated_label_change import WebhookPayloadItemUpdatedLabelChange
from .webhook_payload_item_updated_label_change_new import WebhookPayloadItemUpdatedLabelChangeNew
from .webhook_payload_item_updated_label_change_new_position_type_0 import (
    WebhookPayloadItemUpdatedLabelChangeNewPositionType0,
)
from .webhook_payload_item_updated_label_change_new_size_type_0 import WebhookPayloadItemUpdatedLabelChangeNewSizeType0
from .webhook_payload_item_updated_label_change_old import WebhookPayloadItemUpdatedLabelChangeOld
from .webhook_payload_item_updated_label_change_old_position_type_0 import (
    WebhookPayloadItemUpdatedLabelChangeOldPositionType0,
)
from .webhook_payload_item_updated_label_change_old_size_type_0 import WebhookPayloadItemUpdatedLabelChangeOldSizeType0
from .webhook_payload_item_updated_label_change_subject import WebhookPayloadItemUpdatedLabelChangeSubject
from .webhook_payload_item_updated_shape_change import WebhookPayloadItemUpdatedShapeChange
from .webhook_payload_item_updated_shape_change_new import WebhookPayloadItemUpdatedShapeChangeNew
from .webhook_payload_item_updated_shape_change_new_position_type_0 import (
    WebhookPayloadItemUpdatedShapeChangeNewPositionType0,
)
from .webhook_payload_item_updated_shape_change_new_size_type_0 import WebhookPayloadItemUpdatedShapeChangeNewSizeType0
from .webhook_payload_item_updated_shape_change_old import WebhookPayloadItemUpdatedShapeChangeOld
from .webhook_payload_item_updated_shape_change_old_position_type_0 import (
    WebhookPayloadItemUpdatedShapeChangeOldPositionType0,
)
from .webhook_payload_item_updated_shape_change_old_size_type_0 import WebhookPayloadItemUpdatedShapeChangeOldSizeType0
from .webhook_payload_item_updated_shape_change_subject import WebhookPayloadItemUpdatedShapeChangeSubject
from .webhook_payload_item_updated_sticky_note_change import WebhookPayloadItemUpdatedStickyNoteChange
from .webhook_payload_item_updated_sticky_note_change_new import WebhookPayloadItemUpdatedStickyNoteChangeNew
from .webhook_payload_item_updated_sticky_note_change_new_position_type_0 import (
    WebhookPayloadItemUpdatedStickyNoteChangeNewPositionType0,
)
from .webhook_payload_item_updated_sticky_note_change_new_size_type_0 import (
    WebhookPayloadItemUpdatedStickyNoteChangeNewSizeType0,
)
from .webhook_payload_item_updated_sticky_note_change_old import WebhookPayloadItemUpdatedStickyNoteChangeOld
from .webhook_payload_item_updated_sticky_note_change_old_position_type_0 import (
    WebhookPayloadItemUpdatedStickyNoteChangeOldPositionType0,
)
from .webhook_payload_item_updated_sticky_note_change_old_size_type_0 import (
    WebhookPayloadItemUpdatedStickyNoteChangeOldSizeType0,
)
from .webhook_payload_item_updated_sticky_note_change_subject import WebhookPayloadItemUpdatedStickyNoteChangeSubject
from .webhook_payload_item_updated_svg_change import WebhookPayloadItemUpdatedSvgChange
from .webhook_payload_item_updated_svg_change_new import WebhookPayloadItemUpdatedSvgChangeNew
from .webhook_payload_item_updated_svg_change_new_position_type_0 import (
    WebhookPayloadItemUpdatedSvgChangeNewPositionType0,
)
from .webhook_payload_item_updated_svg_change_new_size_type_0 import WebhookPayloadItemUpdatedSvgChangeNewSizeType0
from .webhook_payload_item_updated_svg_change_old import WebhookPayloadItemUpdatedSvgChangeOld
from .webhook_payload_item_updated_svg_change_old_position_type_0 import (
    WebhookPayloadItemUpdatedSvgChangeOldPositionType0,
)
from .webhook_payload_item_updated_svg_change_old_size_type_0 import WebhookPayloadItemUpdatedSvgChangeOldSizeType0
from .webhook_payload_item_updated_svg_change_subject import WebhookPayloadItemUpdatedSvgChangeSubject
from .webhook_payload_item_updated_web_change import WebhookPayloadItemUpdatedWebChange
from .webhook_payload_item_updated_web_change_new import WebhookPayloadItemUpdatedWebChangeNew
from .webhook_payload_item_updated_web_change_new_position_type_0 import (
    WebhookPayloadItemUpdatedWebChangeNewPositionType0,
)
from .webhook_payload_item_updated_web_change_new_size_type_0 import WebhookPayloadItemUpdatedWebChangeNewSizeType0
from .webhook_payload_item_updated_web_change_old import WebhookPayloadItemUpdatedWebChangeOld
from .webhook_payload_item_updated_web_change_old_position_type_0 import (
    WebhookPayloadItemUpdatedWebChangeOldPositionType0,
)
from .webhook_payload_item_updated_web_change_old_size_type_0 import WebhookPayloadItemUpdatedWebChangeOldSizeType0
from .webhook_payload_item_updated_web_change_subject import WebhookPayloadItemUpdatedWebChangeSubject
from .webhook_payload_ping import WebhookPayloadPing
from .webhook_payload_ping_change import WebhookPayloadPingChange
from .webhook_payload_user_added import WebhookPayloadUserAdded
from .webhook_payload_user_added_change import WebhookPayloadUserAddedChange
from .webhook_payload_user_added_change_new import WebhookPayloadUserAddedChangeNew
from .webhook_payload_user_added_change_subject import WebhookPayloadUserAddedChangeSubject
from .webhook_payload_user_removed import WebhookPayloadUserRemoved
from .webhook_payload_user_removed_change import WebhookPayloadUserRemovedChange
from .webhook_payload_user_removed_change_subject import WebhookPayloadUserRemovedChangeSubject
from .webhook_payload_user_role_changed import WebhookPayloadUserRoleChanged
from .webhook_payload_user_role_changed_change import WebhookPayloadUserRoleChangedChange
from .webhook_payload_user_role_changed_change_new import WebhookPayloadUserRoleChangedChangeNew
from .webhook_payload_user_role_changed_change_old import WebhookPayloadUserRoleChangedChangeOld
from .webhook_payload_user_role_changed_change_subject import WebhookPayloadUserRoleChangedChangeSubject
from .webhook_payload_webhook_delivery_exhausted import WebhookPayloadWebhookDeliveryExhausted
from .webhook_payload_webhook_delivery_exhausted_change import WebhookPayloadWebhookDeliveryExhaustedChange
from .webhook_payload_webhook_delivery_exhausted_change_new import WebhookPayloadWebhookDeliveryExhaustedChangeNew
from .webhook_payload_webhook_delivery_exhausted_change_new_event_kind import (
    WebhookPayloadWebhookDeliveryExhaustedChangeNewEventKind,
)
from .webhook_payload_webhook_delivery_exhausted_change_subject import (
    WebhookPayloadWebhookDeliveryExhaustedChangeSubject,
)
from .webhook_payload_webhook_disabled import WebhookPayloadWebhookDisabled
from .webhook_payload_webhook_disabled_change import WebhookPayloadWebhookDisabledChange
from .webhook_payload_webhook_disabled_change_new import WebhookPayloadWebhookDisabledChangeNew
from .webhook_payload_webhook_disabled_change_subject import WebhookPayloadWebhookDisabledChangeSubject
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
    "Comment",
    "CommentPoint",
    "CommentPosition",
    "CommentsDeleted",
    "CommentThread",
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
    "DeliveryRecovery",
    "DeliveryRecoveryState",
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
    "EventType",
    "EventTypeList",
    "EventTypeName",
    "EventTypeSchema",
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
    "PresenceViewport",
    "Problem",
    "ProblemReason",
    "ProjectRole",
    "ProjectView",
    "RecoverRequest",
    "Redelivery",
    "ReplyRequest",
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
    "Tag",
    "TagDeleted",
    "TagList",
    "TagRequest",
    "ThreadChange",
    "ThreadPage",
    "ThreadRequest",
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
    "WebhookPayloadCommentCreated",
    "WebhookPayloadCommentCreatedChange",
    "WebhookPayloadCommentCreatedChangeNew",
    "WebhookPayloadCommentCreatedChangeNewPositionType0",
    "WebhookPayloadCommentCreatedChangeSubject",
    "WebhookPayloadCommentDeleted",
    "WebhookPayloadCommentDeletedChange",
    "WebhookPayloadCommentDeletedChangeOld",
    "WebhookPayloadCommentDeletedChangeOldPositionType0",
    "WebhookPayloadCommentDeletedChangeSubject",
    "WebhookPayloadCommentResolved",
    "WebhookPayloadCommentResolvedChange",
    "WebhookPayloadCommentResolvedChangeNew",
    "WebhookPayloadCommentResolvedChangeNewPositionType0",
    "WebhookPayloadCommentResolvedChangeOld",
    "WebhookPayloadCommentResolvedChangeOldPositionType0",
    "WebhookPayloadCommentResolvedChangeSubject",
    "WebhookPayloadCommentUpdated",
    "WebhookPayloadCommentUpdatedChange",
    "WebhookPayloadCommentUpdatedChangeNew",
    "WebhookPayloadCommentUpdatedChangeNewPositionType0",
    "WebhookPayloadCommentUpdatedChangeOld",
    "WebhookPayloadCommentUpdatedChangeOldPositionType0",
    "WebhookPayloadCommentUpdatedChangeSubject",
    "WebhookPayloadItemCreated",
    "WebhookPayloadItemCreatedConnectorChange",
    "WebhookPayloadItemCreatedConnectorChangeNew",
    "WebhookPayloadItemCreatedConnectorChangeNewCornerPointsItem",
    "WebhookPayloadItemCreatedConnectorChangeNewEndPoint",
    "WebhookPayloadItemCreatedConnectorChangeNewEndPointAbsolutePositionType0",
    "WebhookPayloadItemCreatedConnectorChangeNewEndPointPositionType0",
    "WebhookPayloadItemCreatedConnectorChangeNewStartPoint",
    "WebhookPayloadItemCreatedConnectorChangeNewStartPointAbsolutePositionType0",
    "WebhookPayloadItemCreatedConnectorChangeNewStartPointPositionType0",
    "WebhookPayloadItemCreatedConnectorChangeSubject",
    "WebhookPayloadItemCreatedDocumentChange",
    "WebhookPayloadItemCreatedDocumentChangeNew",
    "WebhookPayloadItemCreatedDocumentChangeNewPosition",
    "WebhookPayloadItemCreatedDocumentChangeNewSize",
    "WebhookPayloadItemCreatedDocumentChangeSubject",
    "WebhookPayloadItemCreatedImageChange",
    "WebhookPayloadItemCreatedImageChangeNew",
    "WebhookPayloadItemCreatedImageChangeNewPosition",
    "WebhookPayloadItemCreatedImageChangeNewSize",
    "WebhookPayloadItemCreatedImageChangeSubject",
    "WebhookPayloadItemCreatedLabelChange",
    "WebhookPayloadItemCreatedLabelChangeNew",
    "WebhookPayloadItemCreatedLabelChangeNewPosition",
    "WebhookPayloadItemCreatedLabelChangeNewSize",
    "WebhookPayloadItemCreatedLabelChangeSubject",
    "WebhookPayloadItemCreatedShapeChange",
    "WebhookPayloadItemCreatedShapeChangeNew",
    "WebhookPayloadItemCreatedShapeChangeNewPosition",
    "WebhookPayloadItemCreatedShapeChangeNewSize",
    "WebhookPayloadItemCreatedShapeChangeSubject",
    "WebhookPayloadItemCreatedStickyNoteChange",
    "WebhookPayloadItemCreatedStickyNoteChangeNew",
    "WebhookPayloadItemCreatedStickyNoteChangeNewPosition",
    "WebhookPayloadItemCreatedStickyNoteChangeNewSize",
    "WebhookPayloadItemCreatedStickyNoteChangeSubject",
    "WebhookPayloadItemCreatedSvgChange",
    "WebhookPayloadItemCreatedSvgChangeNew",
    "WebhookPayloadItemCreatedSvgChangeNewPosition",
    "WebhookPayloadItemCreatedSvgChangeNewSize",
    "WebhookPayloadItemCreatedSvgChangeSubject",
    "WebhookPayloadItemCreatedWebChange",
    "WebhookPayloadItemCreatedWebChangeNew",
    "WebhookPayloadItemCreatedWebChangeNewPosition",
    "WebhookPayloadItemCreatedWebChangeNewSize",
    "WebhookPayloadItemCreatedWebChangeSubject",
    "WebhookPayloadItemDeleted",
    "WebhookPayloadItemDeletedConnectorChange",
    "WebhookPayloadItemDeletedConnectorChangeOld",
    "WebhookPayloadItemDeletedConnectorChangeOldCornerPointsItem",
    "WebhookPayloadItemDeletedConnectorChangeOldEndPoint",
    "WebhookPayloadItemDeletedConnectorChangeOldEndPointAbsolutePositionType0",
    "WebhookPayloadItemDeletedConnectorChangeOldEndPointPositionType0",
    "WebhookPayloadItemDeletedConnectorChangeOldStartPoint",
    "WebhookPayloadItemDeletedConnectorChangeOldStartPointAbsolutePositionType0",
    "WebhookPayloadItemDeletedConnectorChangeOldStartPointPositionType0",
    "WebhookPayloadItemDeletedConnectorChangeSubject",
    "WebhookPayloadItemDeletedDocumentChange",
    "WebhookPayloadItemDeletedDocumentChangeOld",
    "WebhookPayloadItemDeletedDocumentChangeOldPosition",
    "WebhookPayloadItemDeletedDocumentChangeOldSize",
    "WebhookPayloadItemDeletedDocumentChangeSubject",
    "WebhookPayloadItemDeletedImageChange",
    "WebhookPayloadItemDeletedImageChangeOld",
    "WebhookPayloadItemDeletedImageChangeOldPosition",
    "WebhookPayloadItemDeletedImageChangeOldSize",
    "WebhookPayloadItemDeletedImageChangeSubject",
    "WebhookPayloadItemDeletedLabelChange",
    "WebhookPayloadItemDeletedLabelChangeOld",
    "WebhookPayloadItemDeletedLabelChangeOldPosition",
    "WebhookPayloadItemDeletedLabelChangeOldSize",
    "WebhookPayloadItemDeletedLabelChangeSubject",
    "WebhookPayloadItemDeletedShapeChange",
    "WebhookPayloadItemDeletedShapeChangeOld",
    "WebhookPayloadItemDeletedShapeChangeOldPosition",
    "WebhookPayloadItemDeletedShapeChangeOldSize",
    "WebhookPayloadItemDeletedShapeChangeSubject",
    "WebhookPayloadItemDeletedStickyNoteChange",
    "WebhookPayloadItemDeletedStickyNoteChangeOld",
    "WebhookPayloadItemDeletedStickyNoteChangeOldPosition",
    "WebhookPayloadItemDeletedStickyNoteChangeOldSize",
    "WebhookPayloadItemDeletedStickyNoteChangeSubject",
    "WebhookPayloadItemDeletedSvgChange",
    "WebhookPayloadItemDeletedSvgChangeOld",
    "WebhookPayloadItemDeletedSvgChangeOldPosition",
    "WebhookPayloadItemDeletedSvgChangeOldSize",
    "WebhookPayloadItemDeletedSvgChangeSubject",
    "WebhookPayloadItemDeletedWebChange",
    "WebhookPayloadItemDeletedWebChangeOld",
    "WebhookPayloadItemDeletedWebChangeOldPosition",
    "WebhookPayloadItemDeletedWebChangeOldSize",
    "WebhookPayloadItemDeletedWebChangeSubject",
    "WebhookPayloadItemUpdated",
    "WebhookPayloadItemUpdatedConnectorChange",
    "WebhookPayloadItemUpdatedConnectorChangeNew",
    "WebhookPayloadItemUpdatedConnectorChangeNewCornerPointsType0Item",
    "WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0",
    "WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0AbsolutePositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeNewEndPointType0PositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0",
    "WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0AbsolutePositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeNewStartPointType0PositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeOld",
    "WebhookPayloadItemUpdatedConnectorChangeOldCornerPointsType0Item",
    "WebhookPayloadItemUpdatedConnectorChangeOldEndPointType0",
    "WebhookPayloadItemUpdatedConnectorChangeOldEndPointType0AbsolutePositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeOldEndPointType0PositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeOldStartPointType0",
    "WebhookPayloadItemUpdatedConnectorChangeOldStartPointType0AbsolutePositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeOldStartPointType0PositionType0",
    "WebhookPayloadItemUpdatedConnectorChangeSubject",
    "WebhookPayloadItemUpdatedDocumentChange",
    "WebhookPayloadItemUpdatedDocumentChangeNew",
    "WebhookPayloadItemUpdatedDocumentChangeNewPositionType0",
    "WebhookPayloadItemUpdatedDocumentChangeNewSizeType0",
    "WebhookPayloadItemUpdatedDocumentChangeOld",
    "WebhookPayloadItemUpdatedDocumentChangeOldPositionType0",
    "WebhookPayloadItemUpdatedDocumentChangeOldSizeType0",
    "WebhookPayloadItemUpdatedDocumentChangeSubject",
    "WebhookPayloadItemUpdatedImageChange",
    "WebhookPayloadItemUpdatedImageChangeNew",
    "WebhookPayloadItemUpdatedImageChangeNewPositionType0",
    "WebhookPayloadItemUpdatedImageChangeNewSizeType0",
    "WebhookPayloadItemUpdatedImageChangeOld",
    "WebhookPayloadItemUpdatedImageChangeOldPositionType0",
    "WebhookPayloadItemUpdatedImageChangeOldSizeType0",
    "WebhookPayloadItemUpdatedImageChangeSubject",
    "WebhookPayloadItemUpdatedLabelChange",
    "WebhookPayloadItemUpdatedLabelChangeNew",
    "WebhookPayloadItemUpdatedLabelChangeNewPositionType0",
    "WebhookPayloadItemUpdatedLabelChangeNewSizeType0",
    "WebhookPayloadItemUpdatedLabelChangeOld",
    "WebhookPayloadItemUpdatedLabelChangeOldPositionType0",
    "WebhookPayloadItemUpdatedLabelChangeOldSizeType0",
    "WebhookPayloadItemUpdatedLabelChangeSubject",
    "WebhookPayloadItemUpdatedShapeChange",
    "WebhookPayloadItemUpdatedShapeChangeNew",
    "WebhookPayloadItemUpdatedShapeChangeNewPositionType0",
    "WebhookPayloadItemUpdatedShapeChangeNewSizeType0",
    "WebhookPayloadItemUpdatedShapeChangeOld",
    "WebhookPayloadItemUpdatedShapeChangeOldPositionType0",
    "WebhookPayloadItemUpdatedShapeChangeOldSizeType0",
    "WebhookPayloadItemUpdatedShapeChangeSubject",
    "WebhookPayloadItemUpdatedStickyNoteChange",
    "WebhookPayloadItemUpdatedStickyNoteChangeNew",
    "WebhookPayloadItemUpdatedStickyNoteChangeNewPositionType0",
    "WebhookPayloadItemUpdatedStickyNoteChangeNewSizeType0",
    "WebhookPayloadItemUpdatedStickyNoteChangeOld",
    "WebhookPayloadItemUpdatedStickyNoteChangeOldPositionType0",
    "WebhookPayloadItemUpdatedStickyNoteChangeOldSizeType0",
    "WebhookPayloadItemUpdatedStickyNoteChangeSubject",
    "WebhookPayloadItemUpdatedSvgChange",
    "WebhookPayloadItemUpdatedSvgChangeNew",
    "WebhookPayloadItemUpdatedSvgChangeNewPositionType0",
    "WebhookPayloadItemUpdatedSvgChangeNewSizeType0",
    "WebhookPayloadItemUpdatedSvgChangeOld",
    "WebhookPayloadItemUpdatedSvgChangeOldPositionType0",
    "WebhookPayloadItemUpdatedSvgChangeOldSizeType0",
    "WebhookPayloadItemUpdatedSvgChangeSubject",
    "WebhookPayloadItemUpdatedWebChange",
    "WebhookPayloadItemUpdatedWebChangeNew",
    "WebhookPayloadItemUpdatedWebChangeNewPositionType0",
    "WebhookPayloadItemUpdatedWebChangeNewSizeType0",
    "WebhookPayloadItemUpdatedWebChangeOld",
    "WebhookPayloadItemUpdatedWebChangeOldPositionType0",
    "WebhookPayloadItemUpdatedWebChangeOldSizeType0",
    "WebhookPayloadItemUpdatedWebChangeSubject",
    "WebhookPayloadPing",
    "WebhookPayloadPingChange",
    "WebhookPayloadUserAdded",
    "WebhookPayloadUserAddedChange",
    "WebhookPayloadUserAddedChangeNew",
    "WebhookPayloadUserAddedChangeSubject",
    "WebhookPayloadUserRemoved",
    "WebhookPayloadUserRemovedChange",
    "WebhookPayloadUserRemovedChangeSubject",
    "WebhookPayloadUserRoleChanged",
    "WebhookPayloadUserRoleChangedChange",
    "WebhookPayloadUserRoleChangedChangeNew",
    "WebhookPayloadUserRoleChangedChangeOld",
    "WebhookPayloadUserRoleChangedChangeSubject",
    "WebhookPayloadWebhookDeliveryExhausted",
    "WebhookPayloadWebhookDeliveryExhaustedChange",
    "WebhookPayloadWebhookDeliveryExhaustedChangeNew",
    "WebhookPayloadWebhookDeliveryExhaustedChangeNewEventKind",
    "WebhookPayloadWebhookDeliveryExhaustedChangeSubject",
    "WebhookPayloadWebhookDisabled",
    "WebhookPayloadWebhookDisabledChange",
    "WebhookPayloadWebhookDisabledChangeNew",
    "WebhookPayloadWebhookDisabledChangeSubject",
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
