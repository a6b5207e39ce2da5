import Foundation

/// What to read from a JSON response in one decoding pass: the array (or single object) at
/// `itemsPath`, and the scalars at `scalarPaths`.
struct JSONReadPlan: Sendable {
    var itemsPath: [String]
    var scalarPaths: [[String]]

    init(itemsKeyPath: String, scalarKeyPaths: [String]) {
        itemsPath = Self.components(itemsKeyPath)
        scalarPaths = scalarKeyPaths.map(Self.components)
    }

    static func components(_ keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    }

    static let userInfoKey = CodingUserInfoKey(rawValue: "ReactiveSources.JSONReadPlan")!
}

/// Thrown while decoding when the key path leads nowhere.
struct KeyPathMissing: Error {
    var component: String
}

/// Thrown while decoding when one element of the array does not decode.
struct ElementFailure: Error {
    var index: Int
    var underlying: any Error
}

/// Decodes a response by walking the plan's key paths with `superDecoder(forKey:)`, so the
/// elements are decoded straight from the parsed JSON in a single pass.
struct JSONEnvelope<Element: Decodable>: Decodable {
    var elements: [Element] = []
    var scalars: [[String]: JSONScalar] = [:]

    init(from decoder: any Decoder) throws {
        guard let plan = decoder.userInfo[JSONReadPlan.userInfoKey] as? JSONReadPlan else {
            preconditionFailure("JSONEnvelope decoded without a read plan")
        }
        for path in plan.scalarPaths {
            if let target = try? Self.descend(decoder, along: path),
               let scalar = try? target.singleValueContainer().decode(JSONScalar.self) {
                scalars[path] = scalar
            }
        }
        let target = try Self.descend(decoder, along: plan.itemsPath)
        if var array = try? target.unkeyedContainer() {
            elements.reserveCapacity(array.count ?? 0)
            while !array.isAtEnd {
                let index = array.currentIndex
                do {
                    elements.append(try array.decode(Element.self))
                } catch {
                    throw ElementFailure(index: index, underlying: error)
                }
            }
        } else {
            if let single = try? target.singleValueContainer(), single.decodeNil() {
                throw KeyPathMissing(component: plan.itemsPath.last ?? "<root>")
            }
            do {
                elements = [try Element(from: target)]
            } catch {
                throw ElementFailure(index: 0, underlying: error)
            }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static func descend(_ decoder: any Decoder, along path: [String]) throws -> any Decoder {
        var current = decoder
        for component in path {
            guard let container = try? current.container(keyedBy: Key.self) else {
                throw KeyPathMissing(component: component)
            }
            let key = Key(stringValue: component)
            guard container.contains(key) else { throw KeyPathMissing(component: component) }
            current = try container.superDecoder(forKey: key)
        }
        return current
    }

    /// Decodes `body` with `plan`, mapping failures to ``HTTPFetchError``.
    static func decode(_ body: Data, plan: JSONReadPlan, keyPath: String, url: URL, decoder: JSONDecoder) throws -> JSONEnvelope {
        let decoder = decoder.copy()
        decoder.userInfo[JSONReadPlan.userInfoKey] = plan
        do {
            return try decoder.decode(JSONEnvelope.self, from: body)
        } catch let missing as KeyPathMissing {
            throw HTTPFetchError.keyPathNotFound(keyPath: keyPath, missingAt: missing.component, url: url)
        } catch let failure as ElementFailure {
            throw HTTPFetchError.elementDecoding(index: failure.index, keyPath: keyPath, reason: describe(failure.underlying), url: url)
        } catch {
            throw HTTPFetchError.notJSON(url: url, bodyExcerpt: HTTPFetchError.excerpt(of: body))
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : " at '\(keys.joined(separator: "."))'"
        }
        switch error {
        case .typeMismatch(let type, let context): return "expected \(type)\(path(context))"
        case .valueNotFound(let type, let context): return "missing \(type) value\(path(context))"
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return String(describing: error)
        }
    }
}

extension JSONDecoder {
    /// A decoder with the same strategies (so adding user info never mutates a shared one).
    func copy() -> JSONDecoder {
        let copy = JSONDecoder()
        copy.dateDecodingStrategy = dateDecodingStrategy
        copy.dataDecodingStrategy = dataDecodingStrategy
        copy.keyDecodingStrategy = keyDecodingStrategy
        copy.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        copy.userInfo = userInfo
        return copy
    }
}
