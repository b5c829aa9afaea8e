//! Trust policy: whether a hook source may run, by surface, source kind and posture.
