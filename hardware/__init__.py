"""Board definitions shipped with reedboard (the TOML files beside this one)."""
