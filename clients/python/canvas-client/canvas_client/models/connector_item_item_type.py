from enum import StrEnum


class ConnectorItemItemType(StrEnum):
    CONNECTOR = "connector"

    def __str__(self) -> str:
        return str(self.value)
