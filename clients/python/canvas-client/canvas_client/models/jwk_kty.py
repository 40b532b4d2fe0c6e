from enum import StrEnum


class JwkKty(StrEnum):
    EC = "EC"

    def __str__(self) -> str:
        return str(self.value)
