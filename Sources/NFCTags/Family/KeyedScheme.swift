/// Keyed personalisation a family offers for some of its chips: the seam the pipeline, the manifest and the
/// CLI use instead of naming a chip.
///
/// A family lists its schemes in `TagFamily.keyedSchemes`; a job whose manifest carries a scheme's `section`
/// is a keyed job, and its tags run the scheme's step plan in place of write, lock and protect.
public protocol KeyedScheme: Sendable {
    /// The manifest section that carries the scheme's options, decoded by the family.
    var section: String { get }
    /// The chips the scheme personalises.
    var chips: Set<TagChip> { get }
}
