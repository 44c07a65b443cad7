"""Spec files (specs/*.toml) loaded into the one game model (poolgen/game/): `load_spec`."""

from poolgen.loader.load import default_spec_dir, load_spec

__all__ = ["default_spec_dir", "load_spec"]
