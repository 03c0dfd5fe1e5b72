// TodoServer's Hummingbird routes: GraphQL execution, canned bytes in chunks, and the faults an
// HTTP server can commit with a well-formed response.
#if HTTP
    import Foundation
    import GraphQL
    import Hummingbird
    import NIOConcurrencyHelpers
    import NIOCore

    /// The body of a GraphQL POST.
    private struct GraphQLBody: Decodable {
        var query: String
        var variables: [String: Map]?
        var operationName: String?
    }

    struct Routes: Sendable {
        let schema: GraphQLSchema
        let recorded: NIOLockedValueBox<[ReceivedRequest]>
        let canned: NIOLockedValueBox<[String: [UInt8]]>

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("graphql") { request, _ in try await graphQL(record(request)) }
            router.post("canned/:name") { request, context in
                _ = try await record(request)
                let name = context.parameters.get("name") ?? ""
                guard let bytes = canned.withLockedValue({ $0[name] }) else { return Response(status: .notFound) }
                let chunk = max(1, request.uri.queryParameters.get("chunk", as: Int.self) ?? 64 * 1024)
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(contentLength: bytes.count) { writer in
                        for start in stride(from: 0, to: bytes.count, by: chunk) {
                            try await writer.write(ByteBuffer(bytes: bytes[start..<min(start + chunk, bytes.count)]))
                        }
                        try await writer.finish(nil)
                    })
            }
            router.post("status/:code") { request, context in
                _ = try await record(request)
                let code = context.parameters.get("code", as: Int.self) ?? 500
                return json(#"{"errors":[{"message":"the server failed"}]}"#.utf8, status: .init(code: code))
            }
            router.post("not-json") { request, _ in
                _ = try await record(request)
                return json(TodoServer.notJSONBody)
            }
            router.post("graphql-errors") { request, _ in
                _ = try await record(request)
                return json(TodoServer.graphQLErrorsBody)
            }
            return router
        }

        /// Keeps the request (method, path, headers, body) and returns its body.
        private func record(_ request: Request) async throws -> [UInt8] {
            var request = request
            let body = try await request.collectBody(upTo: 64 << 20)
            let received = ReceivedRequest(
                method: request.method.rawValue, path: request.uri.path,
                headers: request.headers.map { (name: $0.name.rawName, value: $0.value) },
                body: Array(buffer: body))
            recorded.withLockedValue { $0.append(received) }
            return received.body
        }

        private func graphQL(_ body: [UInt8]) async throws -> Response {
            guard let request = try? JSONDecoder().decode(GraphQLBody.self, from: Data(body)) else {
                return json(#"{"errors":[{"message":"the body is not a GraphQL request"}]}"#.utf8, status: .badRequest)
            }
            let result = try await graphql(
                schema: schema, request: request.query, variableValues: request.variables ?? [:],
                operationName: request.operationName)
            let encoder = GraphQLJSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            return json(try encoder.encode(result))
        }

        private func json(_ bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
            Response(
                status: status, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
#endif
