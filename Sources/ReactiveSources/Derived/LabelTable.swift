/// The rows that leave in a large change, by label, for the merge passes that look up every
/// shown row's label while only some of the rows leave (Sorted's bulk pass, and Sectioned's
/// with an object order). A bitmap of the labels' hashes, 8 bits per row it holds, answers most lookups
/// of rows that stay from a few hundred kilobytes that stay in cache; only the others reach
/// the dictionary behind it, whose slots are scattered over megabytes at a million rows.
///
/// Insert and lookup O(1) (one multiply-shift, plus the dictionary's hash for labels it
/// holds and for about one staying row in nine).
struct LabelTable {
    private var tags: [RowLabel: Int] = [:]
    private var bits: [UInt64]
    /// 64 minus the bitmap's log2 size: the shift that keeps a hash's top bits.
    private let shift: UInt64

    /// An empty table with room for `capacity` labels.
    init(capacity: Int) {
        var logSize: UInt64 = 6
        while 1 << logSize < capacity * 8 { logSize += 1 }
        bits = [UInt64](repeating: 0, count: 1 << (logSize - 6))
        shift = 64 - logSize
        tags.reserveCapacity(capacity)
    }

    /// The number of labels held.
    var count: Int { tags.count }

    /// The bitmap position of `label`: the top bits of a multiplicative hash of both fields.
    private func bit(_ label: RowLabel) -> Int {
        let mixed = (label.value &+ UInt64(UInt(bitPattern: label.section)) &* 0xD6E8_FEB8_6659_FD93) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> shift)
    }

    /// The tag of `label`, or `nil` if it is not held.
    func tag(of label: RowLabel) -> Int? {
        let bit = bit(label)
        guard bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return nil }
        return tags[label]
    }

    /// Holds `tag` for `label` (replacing the tag it had).
    mutating func set(_ tag: Int, for label: RowLabel) {
        let bit = bit(label)
        bits[bit >> 6] |= 1 << UInt64(bit & 63)
        tags[label] = tag
    }
}
