"""Convert between a validated Gravstrike document (plain dicts/lists) and Gravstrike's typed model.

``to_document`` writes the canonical form: every field in schema order, defaults included,
integral numbers written as integers, so saving is deterministic.
"""

from __future__ import annotations

from typing import Any, cast

from schema.starts import start_sets_document, start_sets_from
from schema.document import Doc, extensions_of, header_document, num, shape_doc, shape_from, with_extensions
from schema.document import point as _pt
from schema.document import point_doc as _p
from schema.games.gravstrike import model as m


def arena_from(doc: Doc) -> m.Arena:
    """Build the model from a document that passed validation."""
    g = doc.get
    sc = g("scenario", {})
    an = sc.get("analysis", {})
    da = m.Analysis()
    analysis = m.Analysis(
        tier=int(an.get("tier", da.tier)),
        start_access_tolerance=float(an.get("start_access_tolerance", da.start_access_tolerance)),
        start_spacing_tolerance=float(an.get("start_spacing_tolerance", da.start_spacing_tolerance)),
        start_spacing_time_tolerance=float(an.get("start_spacing_time_tolerance", da.start_spacing_time_tolerance)),
        checkpoint_min_turns=float(an.get("checkpoint_min_turns", da.checkpoint_min_turns)),
        target_access_tolerance=float(an.get("target_access_tolerance", da.target_access_tolerance)),
        target_tn_tolerance=int(an.get("target_tn_tolerance", da.target_tn_tolerance)),
        safe_area_radius=float(an.get("safe_area_radius", da.safe_area_radius)),
        safe_area_min_visible=float(an.get("safe_area_min_visible", da.safe_area_min_visible)),
        disabled=tuple(an.get("disabled", ())),
        placement_tolerance=float(an.get("placement_tolerance", da.placement_tolerance)),
        placement_angle_tolerance=float(an.get("placement_angle_tolerance", da.placement_angle_tolerance)),
    )
    va = sc.get("variants", {})
    variants = m.Variants(**{k: bool(v) for k, v in va.items()})
    tt = sc.get("tier_thresholds", [4, 8])
    scenario = m.Scenario(
        players=sc.get("players"),
        start_sets=start_sets_from(sc.get("start_sets")),
        vp_to_win=int(sc.get("vp_to_win", 12)),
        tier_thresholds=(int(tt[0]), int(tt[1])),
        veteran_limit=int(sc.get("veteran_limit", 0)),
        respawns=int(sc.get("respawns", 2)),
        variants=variants,
        analysis=analysis,
    )
    tu = g("turbine", {})
    dt = m.Turbine()
    turbine = m.Turbine(
        length=float(tu.get("length", dt.length)),
        width=float(tu.get("width", dt.width)),
        speed_delta=int(tu.get("speed_delta", dt.speed_delta)),
        max_speed=int(tu.get("max_speed", dt.max_speed)),
        icons_per_turn=tu.get("icons_per_turn", dt.icons_per_turn),
    )
    sy = g("symmetry")
    symmetry = None
    if sy is not None:
        symmetry = m.Symmetry(kind=sy["kind"], order=int(sy.get("order", 1)),
                              center=_pt(sy.get("center", [0, 0])), axis=float(sy.get("axis", 90.0)))
    bounds = cast(m.BoundsShape, shape_from(doc["bounds"])) if "bounds" in doc else m.Rect(center=(0.0, 0.0), size=(24.0, 24.0))
    return m.Arena(
        format=doc["format"],
        system=doc["system"],
        name=doc["name"],
        description=g("description"),
        author=g("author"),
        license=g("license"),
        tags=tuple(g("tags", ())),
        units=m.Units(length_mm=float(g("units", {}).get("length_mm", 40.0))),
        bounds=bounds,
        turbine=turbine,
        symmetry=symmetry,
        walls=tuple(m.Wall(id=w["id"], shape=shape_from(w["shape"]), extensions=extensions_of(w)) for w in g("walls", ())),
        checkpoints=tuple(
            m.Checkpoint(id=c["id"], kind=c["kind"], shape=cast(m.AreaShape, shape_from(c["shape"])),
                         decaying=bool(c.get("decaying", False)), extensions=extensions_of(c))
            for c in g("checkpoints", ())
        ),
        gates=tuple(
            m.Gate(id=x["id"], kind=x["kind"], start=_pt(x["from"]), end=_pt(x["to"]),
                   one_way=bool(x.get("one_way", False)), extensions=extensions_of(x))
            for x in g("gates", ())
        ),
        acceleration_fields=tuple(
            m.AccelerationField(id=f["id"], shape=cast(m.AreaShape, shape_from(f["shape"])),
                                direction=float(f["direction"]), extensions=extensions_of(f))
            for f in g("acceleration_fields", ())
        ),
        exclusion_fields=tuple(
            m.ExclusionField(id=f["id"], shape=cast(m.AreaShape, shape_from(f["shape"])),
                             active_from_tier=int(f.get("active_from_tier", 3)), extensions=extensions_of(f))
            for f in g("exclusion_fields", ())
        ),
        static_targets=tuple(
            m.StaticTarget(id=t["id"], position=_pt(t["position"]), tn_modifier=int(t.get("tn_modifier", 0)),
                           capacity=int(t.get("capacity", 1)), exploding=bool(t.get("exploding", False)),
                           extensions=extensions_of(t))
            for t in g("static_targets", ())
        ),
        start_positions=tuple(
            m.StartPosition(player=int(s["player"]), position=_pt(s["position"]), facing=float(s["facing"]),
                            extensions=extensions_of(s))
            for s in g("start_positions", ())
        ),
        scenario=scenario,
        extensions=extensions_of(doc),
    )


def _placement(an: m.Analysis) -> Doc:
    """The placement tolerances, written only when they differ from the defaults (files saved
    before they existed keep their canonical form)."""
    d = m.Analysis()
    out: Doc = {}
    if an.placement_tolerance != d.placement_tolerance:
        out["placement_tolerance"] = num(an.placement_tolerance)
    if an.placement_angle_tolerance != d.placement_angle_tolerance:
        out["placement_angle_tolerance"] = num(an.placement_angle_tolerance)
    return out


def to_document(a: m.Arena) -> Doc:
    """The canonical document of an arena."""
    doc: Doc = header_document(a)
    doc["units"] = {"length_mm": num(a.units.length_mm)}
    doc["bounds"] = shape_doc(a.bounds)
    t = a.turbine
    doc["turbine"] = {"length": num(t.length), "width": num(t.width), "speed_delta": t.speed_delta,
                      "max_speed": t.max_speed, "icons_per_turn": t.icons_per_turn}
    if a.symmetry is not None:
        sy = a.symmetry
        doc["symmetry"] = {"kind": sy.kind, "order": sy.order, "center": _p(sy.center), "axis": num(sy.axis)}
    doc["walls"] = [with_extensions({"id": w.id, "shape": shape_doc(w.shape)}, w.extensions) for w in a.walls]
    doc["checkpoints"] = [
        with_extensions({"id": c.id, "kind": c.kind, "shape": shape_doc(c.shape), "decaying": c.decaying}, c.extensions)
        for c in a.checkpoints
    ]
    doc["gates"] = [
        with_extensions({"id": x.id, "kind": x.kind, "from": _p(x.start), "to": _p(x.end), "one_way": x.one_way}, x.extensions)
        for x in a.gates
    ]
    doc["acceleration_fields"] = [
        with_extensions({"id": f.id, "shape": shape_doc(f.shape), "direction": num(f.direction)}, f.extensions)
        for f in a.acceleration_fields
    ]
    doc["exclusion_fields"] = [
        with_extensions({"id": f.id, "shape": shape_doc(f.shape), "active_from_tier": f.active_from_tier}, f.extensions)
        for f in a.exclusion_fields
    ]
    doc["static_targets"] = [
        with_extensions({"id": s.id, "position": _p(s.position), "tn_modifier": s.tn_modifier,
                   "capacity": s.capacity, "exploding": s.exploding}, s.extensions)
        for s in a.static_targets
    ]
    doc["start_positions"] = [
        with_extensions({"player": s.player, "position": _p(s.position), "facing": num(s.facing)}, s.extensions)
        for s in a.start_positions
    ]
    sc = a.scenario
    an = sc.analysis
    scen: Doc = {}
    if sc.players is not None:
        scen["players"] = sc.players
    if sc.start_sets:
        scen["start_sets"] = start_sets_document(sc.start_sets)
    scen.update({
        "vp_to_win": sc.vp_to_win,
        "tier_thresholds": list(sc.tier_thresholds),
        "veteran_limit": sc.veteran_limit,
        "respawns": sc.respawns,
        "variants": {
            "gates": sc.variants.gates,
            "decaying_checkpoints": sc.variants.decaying_checkpoints,
            "small_targets": sc.variants.small_targets,
            "resilient_targets": sc.variants.resilient_targets,
            "exploding_targets": sc.variants.exploding_targets,
        },
        "analysis": {
            "tier": an.tier,
            "start_access_tolerance": num(an.start_access_tolerance),
            "start_spacing_tolerance": num(an.start_spacing_tolerance),
            "start_spacing_time_tolerance": num(an.start_spacing_time_tolerance),
            "checkpoint_min_turns": num(an.checkpoint_min_turns),
            "target_access_tolerance": num(an.target_access_tolerance),
            "target_tn_tolerance": an.target_tn_tolerance,
            "safe_area_radius": num(an.safe_area_radius),
            "safe_area_min_visible": num(an.safe_area_min_visible),
            "disabled": list(an.disabled),
            **_placement(an),
        },
    })
    doc["scenario"] = scen
    return with_extensions(doc, a.extensions)
