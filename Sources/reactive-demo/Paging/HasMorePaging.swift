import ReactiveSources

/// Another strategy, plus a boolean "has more" key in each response: `false` there ends the
/// paging whatever the base strategy says; `true`, missing or not a boolean leaves the base
/// strategy's answer. Built on the library's public ``PagingStrategy``.
struct HasMorePaging: PagingStrategy {
    /// The strategy that requests pages and reads everything else.
    let base: any PagingStrategy
    /// Dotted key path of the boolean.
    let hasMoreKey: String

    /// The base strategy's key paths and the has-more key.
    var scalarKeyPaths: [String] { base.scalarKeyPaths + [hasMoreKey] }

    /// Prepares the request as the base strategy does.
    func prepare(_ request: inout PageRequest, for token: PageToken) throws {
        try base.prepare(&request, for: token)
    }

    /// The base strategy's answer, with no next page when the has-more key is `false`.
    func interpret(_ response: PageResponse, objectCount: Int, requested token: PageToken) -> (info: PageInfo, next: PageToken?) {
        let (info, next) = base.interpret(response, objectCount: objectCount, requested: token)
        if case .bool(false) = response.scalars[hasMoreKey] { return (info, nil) }
        return (info, next)
    }
}
