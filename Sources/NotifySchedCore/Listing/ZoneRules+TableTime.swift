extension ZoneRules {
    /// `2026-11-26 09:00`: an instant in this zone to the minute, as the tables show it.
    public func tableMinute(at instant: Instant) -> String {
        let text = civil(at: instant).description
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5)
    }

    /// `09:05`: the time of day of an instant in this zone, to the minute.
    public func tableClock(at instant: Instant) -> String {
        String(civil(at: instant).description.dropFirst(11).prefix(5))
    }
}
