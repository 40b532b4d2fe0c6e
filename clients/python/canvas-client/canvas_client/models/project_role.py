from enum import StrEnum


class ProjectRole(StrEnum):
    ADMIN = "Admin"
    EDITOR = "Editor"
    MANAGER = "Manager"
    VIEWER = "Viewer"

    def __str__(self) -> str:
        return str(self.value)
