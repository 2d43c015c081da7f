package org.salgate.transport.grpc.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.grpc.Status;
import org.junit.jupiter.api.Test;
import org.salgate.model.ErrorCode;

class StatusesTest {

    @Test
    void everyErrorCodeHasAStatusOtherThanUnknown() {
        for (ErrorCode code : ErrorCode.values()) {
            assertNotEquals(Status.Code.UNKNOWN, Statuses.code(code).getCode(), code + " maps to UNKNOWN");
        }
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, Statuses.code(ErrorCode.OVERLOADED).getCode());
        assertEquals(Status.Code.INVALID_ARGUMENT, Statuses.code(ErrorCode.INVALID_ARGUMENT).getCode());
    }

    @Test
    void aFailureKeepsTheAgentsWordsAsTheDescription() {
        var e = Statuses.of(null, new org.salgate.model.Result.Failure(ErrorCode.UNKNOWN_SENSOR, "no sensor 'X'"));
        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
        assertEquals("no sensor 'X'", e.getStatus().getDescription());
    }

    @Test
    void theBearerTokenIsTakenFromItsAuthorizationValueWhateverTheCaseOfTheScheme() {
        assertEquals("s3cret", CallBudget.bearerToken("Bearer s3cret"));
        assertEquals("s3cret", CallBudget.bearerToken("bearer  s3cret "));
        assertEquals("", CallBudget.bearerToken("Basic dXNlcjpwYXNz"));
        assertEquals("", CallBudget.bearerToken(null));
    }
}
