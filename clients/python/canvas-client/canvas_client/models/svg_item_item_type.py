from enum import StrEnum


class SvgItemItemType(StrEnum):
    SVG = "svg"

    def __str__(self) -> str:
        return str(self.value)
