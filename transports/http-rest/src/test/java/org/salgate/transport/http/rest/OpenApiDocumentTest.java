package org.salgate.transport.http.rest;

import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.salgate.transport.ServerHandler;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.Session;
import org.salgate.wire.Message;

/** The OpenAPI document served at /api/openapi.json describes exactly the API routes the server has. */
class OpenApiDocumentTest {

    private static final ServerHandler UNUSED = new ServerHandler() {
        @Override
        public void sessionOpened(Session session) {
            throw new AssertionError("no session is opened by building the routes");
        }

        @Override
        public void messageReceived(Session session, Message message) {
            throw new AssertionError("no message is sent by building the routes");
        }

        @Override
        public void sessionClosed(Session session, Throwable cause) {
            throw new AssertionError("no session is closed by building the routes");
        }
    };

    private static Set<String> routedOperations() {
        Set<String> operations = new TreeSet<>();
        new RestApi(UNUSED, ServerOptions.builder().build(), new AtomicLong()::incrementAndGet, null).routes
                .forEach((template, methods) -> methods.keySet().forEach(method -> {
                    if (template.startsWith("/api/")) {
                        operations.add(method.name() + " " + template);
                    }
                }));
        return operations;
    }

    private static Set<String> documentedOperations() throws Exception {
        JsonNode document = Replies.JSON.readTree(RestApi.resource(RestApi.OPENAPI));
        Set<String> operations = new TreeSet<>();
        for (var path : document.get("paths").properties()) {
            path.getValue().fieldNames().forEachRemaining(method -> operations.add(method.toUpperCase() + " " + path.getKey()));
        }
        return operations;
    }

    @Test
    void everyRouteIsDocumentedAndEveryDocumentedOperationIsRouted() throws Exception {
        Set<String> routed = routedOperations();
        Set<String> documented = documentedOperations();
        assertFalse(routed.isEmpty(), "the router has no API routes");
        Set<String> undocumented = new TreeSet<>(routed);
        undocumented.removeAll(documented);
        Set<String> unrouted = new TreeSet<>(documented);
        unrouted.removeAll(routed);
        assertEquals(Set.of(), undocumented, "routes missing from openapi.json");
        assertEquals(Set.of(), unrouted, "operations in openapi.json that no route serves");
    }

    @Test
    void documentIsOpenApi3WithAnOperationIdPerOperation() throws Exception {
        JsonNode document = Replies.JSON.readTree(RestApi.resource(RestApi.OPENAPI));
        assertEquals("3", document.get("openapi").asText().substring(0, 1));
        Set<String> ids = new TreeSet<>();
        document.get("paths").forEach(path -> path.forEach(operation -> ids.add(operation.get("operationId").asText())));
        assertEquals(documentedOperations().size(), ids.size(), "operationIds must exist and be unique");
    }

    @Test
    void pageFilesAreInTheJar() {
        for (String file : RestApi.PAGE) {
            assertFalse(RestApi.resource("www/" + file).length == 0, file + " is empty");
        }
    }
}
