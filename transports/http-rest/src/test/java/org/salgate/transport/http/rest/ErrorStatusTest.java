package org.salgate.transport.http.rest;

import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.Test;
import org.salgate.model.ErrorCode;

/** Each of the agent's error codes gets an HTTP status that says the same. */
class ErrorStatusTest {

    @Test
    void refusalsMapToTheStatusAPersonExpects() {
        assertEquals(HttpResponseStatus.NOT_FOUND, RestApi.statusOf(ErrorCode.UNKNOWN_SENSOR));
        assertEquals(HttpResponseStatus.NOT_FOUND, RestApi.statusOf(ErrorCode.UNKNOWN_COMMAND));
        assertEquals(HttpResponseStatus.NOT_FOUND, RestApi.statusOf(ErrorCode.UNKNOWN_PROTOCOL));
        assertEquals(HttpResponseStatus.BAD_REQUEST, RestApi.statusOf(ErrorCode.INVALID_ARGUMENT));
        assertEquals(HttpResponseStatus.BAD_REQUEST, RestApi.statusOf(ErrorCode.INVALID_DOCUMENT));
        assertEquals(HttpResponseStatus.CONFLICT, RestApi.statusOf(ErrorCode.CONFLICT));
        assertEquals(HttpResponseStatus.SERVICE_UNAVAILABLE, RestApi.statusOf(ErrorCode.OVERLOADED));
        assertEquals(HttpResponseStatus.UNAUTHORIZED, RestApi.statusOf(ErrorCode.UNAUTHENTICATED));
        assertEquals(HttpResponseStatus.FORBIDDEN, RestApi.statusOf(ErrorCode.PERMISSION_DENIED));
        assertEquals(HttpResponseStatus.INTERNAL_SERVER_ERROR, RestApi.statusOf(ErrorCode.INTERNAL));
    }

    @Test
    void onlyInternalFailuresAre500() {
        for (ErrorCode code : ErrorCode.values()) {
            if (code != ErrorCode.INTERNAL) {
                assertNotEquals(HttpResponseStatus.INTERNAL_SERVER_ERROR, RestApi.statusOf(code), code.name());
            }
        }
    }

    @Test
    void overloadedAnswerCarriesTheAgentsWords() throws Exception {
        var response = RestApi.errorReply(new RestApi.Failed(ErrorCode.OVERLOADED,
                "the agent is too busy to take this request now; retry later"), false);
        try {
            assertEquals(503, response.status().code());
            var body = Replies.JSON.readTree(response.content().toString(java.nio.charset.StandardCharsets.UTF_8));
            assertEquals("OVERLOADED", body.get("error").asText());
            assertEquals("the agent is too busy to take this request now; retry later", body.get("message").asText());
        } finally {
            response.release();
        }
    }
}
