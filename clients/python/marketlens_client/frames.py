"""Items as a pandas DataFrame, for notebooks. pandas is an optional extra, imported only here."""

import importlib
from collections.abc import Iterable
from typing import Any, Protocol


class Model(Protocol):
    """A generated model: every one can give itself as a dict of its JSON fields."""

    def to_dict(self) -> dict[str, Any]: ...


def to_dataframe(models: Iterable[Model]) -> Any:
    """One row per model, one column per JSON field, nested objects flattened with dots
    (`credits.remaining`). Returns a `pandas.DataFrame` (typed `Any`: pandas ships no types of
    its own, and this package does not require it)."""
    try:
        pandas = importlib.import_module("pandas")
    except ImportError as error:
        raise ImportError("to_dataframe needs pandas: pip install 'marketlens-client[pandas]'") from error
    return pandas.json_normalize([model.to_dict() for model in models])
