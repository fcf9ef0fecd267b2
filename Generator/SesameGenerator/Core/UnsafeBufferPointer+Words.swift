extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes of `word` stand at `index` (false when they would run past either
    /// end). With `ignoringCase`, bytes are compared with their `0x20` bit set, which folds
    /// ASCII letters' case and leaves the punctuation the callers look for unchanged.
    func holds(_ word: StaticString, at index: Int, ignoringCase: Bool = false) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index >= 0, index + count <= self.count else { return false }
        let letters = word.utf8Start
        let fold: UInt8 = ignoringCase ? 0x20 : 0
        for offset in 0..<count where self[index + offset] | fold != letters[offset] | fold { return false }
        return true
    }
}
