extension Array {
    /// The index of the first element for which `isAfter` holds, in an array where it holds of
    /// a suffix: a binary search.
    func partitioningIndex(where isAfter: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
