/// Names in the order people count: "Convoy 2" before "Convoy 10", letters compared without
/// case. Digits are compared as numbers (leading zeros aside); everything else by its
/// lower-cased Unicode scalars, so the order is the same on every machine and locale.
package enum NaturalOrder {
    package static func precedes(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    package static func compare(_ a: String, _ b: String) -> Int {
        var left = Array(a.lowercased().unicodeScalars)[...], right = Array(b.lowercased().unicodeScalars)[...]
        while let l = left.first, let r = right.first {
            if isDigit(l) && isDigit(r) {
                let leftDigits = left.prefix(while: isDigit), rightDigits = right.prefix(while: isDigit)
                left = left.dropFirst(leftDigits.count)
                right = right.dropFirst(rightDigits.count)
                let leftNumber = leftDigits.drop { $0 == "0" }, rightNumber = rightDigits.drop { $0 == "0" }
                if leftNumber.count != rightNumber.count { return leftNumber.count - rightNumber.count }
                for (x, y) in zip(leftNumber, rightNumber) where x != y { return x.value < y.value ? -1 : 1 }
                continue
            }
            if l != r { return l.value < r.value ? -1 : 1 }
            left = left.dropFirst()
            right = right.dropFirst()
        }
        return left.count - right.count
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
