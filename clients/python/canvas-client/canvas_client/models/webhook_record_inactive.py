from enum import StrEnum


class WebhookRecordInactive(StrEnum):
    COPIEDFROMOTHERPROJECT = "copiedFromOtherProject"
    INVALIDDEFINITION = "invalidDefinition"

    def __str__(self) -> str:
        return str(self.value)
