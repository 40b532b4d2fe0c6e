from enum import StrEnum


class WebItemItemType(StrEnum):
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
