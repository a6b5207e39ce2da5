import Foundation

/// What to read from a JSON response in one decoding pass: the array (or single object) at
/// the items key path, and the scalars at the scalar key paths, as one tree of keys so that
/// every JSON object on the way is opened once.
struct JSONReadPlan: Sendable {
    /// The dotted items key path, split.
    let itemsPath: [String]
    /// The dotted scalar key paths, as given (the keys of ``JSONEnvelope/scalars``).
    let scalarKeyPaths: [String]
    /// The root of the key tree.
    let root: Node

    /// One JSON value the plan visits: the root, or the value under `key` in its parent.
    struct Node: Sendable {
        var key: String
        /// Whether the items are this value.
        var isItems = false
        /// The key of the child on the way to the items, if the items are below this value.
        var itemsChild: String?
        /// The scalar key paths that name this value.
        var scalarNames: [String] = []
        /// The values below this one that the plan visits, in first-mention order.
        var children: [Node] = []
    }

    init(itemsKeyPath: String, scalarKeyPaths: [String]) {
        itemsPath = Self.components(itemsKeyPath)
        self.scalarKeyPaths = scalarKeyPaths
        var root = Node(key: "")
        root.insert(itemsPath[...], items: true) { $0.isItems = true }
        for path in scalarKeyPaths {
            root.insert(Self.components(path)[...], items: false) { $0.scalarNames.append(path) }
        }
        self.root = root
    }

    static func components(_ keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    }
}

extension JSONReadPlan.Node {
    /// Adds the value at `path` below this one and marks it; `items` records the way down.
    fileprivate mutating func insert(_ path: ArraySlice<String>, items: Bool, mark: (inout Self) -> Void) {
        guard let first = path.first else { return mark(&self) }
        if items { itemsChild = first }
        if let index = children.firstIndex(where: { $0.key == first }) {
            children[index].insert(path.dropFirst(), items: items, mark: mark)
        } else {
            var child = Self(key: first)
            child.insert(path.dropFirst(), items: items, mark: mark)
            children.append(child)
        }
    }
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

/// Decodes a response by following the plan's key tree through keyed containers, so the
/// elements are decoded straight from the parsed JSON in a single pass, and each object on
/// the way is opened once. The plan comes in as the decoding configuration: the caller's
/// decoder is used as it is (no copy to carry the plan, nothing written to it).
struct JSONEnvelope<Element: Decodable>: DecodableWithConfiguration {
    var elements: [Element] = []
    /// The scalars found, by dotted key path (as given to the plan); absent paths are missing.
    var scalars: [String: JSONScalar] = [:]

    init(from decoder: any Decoder, configuration plan: JSONReadPlan) throws {
        scalars.reserveCapacity(plan.scalarKeyPaths.count)
        let root = plan.root
        if !root.scalarNames.isEmpty, let scalar = try? decoder.singleValueContainer().decode(JSONScalar.self) {
            for name in root.scalarNames { scalars[name] = scalar }
        }
        if root.isItems {
            try decodeItems(from: decoder, missing: "<root>")
        }
        guard !root.children.isEmpty else { return }
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            if let next = root.itemsChild { throw KeyPathMissing(component: next) }
            return
        }
        try visit(root, in: container)
    }

    /// Reads the children of `node` from `container` (the object `node` names).
    private mutating func visit(_ node: JSONReadPlan.Node, in container: KeyedDecodingContainer<Key>) throws {
        for child in node.children {
            let key = Key(stringValue: child.key)
            let onItemsPath = node.itemsChild == child.key
            if !child.scalarNames.isEmpty, let scalar = try? container.decode(JSONScalar.self, forKey: key) {
                for name in child.scalarNames { scalars[name] = scalar }
            }
            if child.isItems {
                try decodeItems(at: key, in: container)
            } else if onItemsPath && !container.contains(key) {
                throw KeyPathMissing(component: child.key)
            }
            guard !child.children.isEmpty else { continue }
            if let nested = try? container.nestedContainer(keyedBy: Key.self, forKey: key) {
                try visit(child, in: nested)
            } else if let next = child.itemsChild {
                throw KeyPathMissing(component: next)
            }
        }
    }

    /// The items under `key`: an array, or a single object; absent or `null` is a missing key path.
    private mutating func decodeItems(at key: Key, in container: KeyedDecodingContainer<Key>) throws {
        guard container.contains(key), (try? container.decodeNil(forKey: key)) != true else {
            throw KeyPathMissing(component: key.stringValue)
        }
        if var array = try? container.nestedUnkeyedContainer(forKey: key) {
            try decodeElements(from: &array)
        } else {
            do {
                elements = [try container.decode(Element.self, forKey: key)]
            } catch {
                throw ElementFailure(index: 0, underlying: error)
            }
        }
    }

    /// The items that are the whole value `decoder` decodes (an empty items key path).
    private mutating func decodeItems(from decoder: any Decoder, missing: String) throws {
        if var array = try? decoder.unkeyedContainer() {
            try decodeElements(from: &array)
        } else {
            if let single = try? decoder.singleValueContainer(), single.decodeNil() {
                throw KeyPathMissing(component: missing)
            }
            do {
                elements = [try Element(from: decoder)]
            } catch {
                throw ElementFailure(index: 0, underlying: error)
            }
        }
    }

    private mutating func decodeElements(from array: inout any UnkeyedDecodingContainer) throws {
        elements.reserveCapacity(array.count ?? 0)
        while !array.isAtEnd {
            let index = array.currentIndex
            do {
                elements.append(try array.decode(Element.self))
            } catch {
                throw ElementFailure(index: index, underlying: error)
            }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes `body` with `plan`, mapping failures to ``DataSourceError/decoding(_:)``.
    static func decode(_ body: Data, plan: JSONReadPlan, keyPath: String, url: URL, decoder: JSONDecoder) throws -> JSONEnvelope {
        do {
            return try decoder.decode(JSONEnvelope.self, from: body, configuration: plan)
        } catch let missing as KeyPathMissing {
            throw DataSourceError.decoding(DecodingFailure(url: url, keyPath: keyPath, problem: .keyPathNotFound(missingAt: missing.component)))
        } catch let failure as ElementFailure {
            throw DataSourceError.decoding(DecodingFailure(url: url, keyPath: keyPath, problem: .invalidElement(index: failure.index, failure.underlying)))
        } catch {
            throw DataSourceError.decoding(DecodingFailure(url: url, keyPath: keyPath, problem: .notJSON(bodyExcerpt: DataSourceError.excerpt(of: body))))
        }
    }
}
