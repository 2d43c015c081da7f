package org.salgate.wire;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.salgate.model.Operation;

/** The samples every codec and transport suite sends cover what {@link Operation} declares. */
class WireSamplesTest {

    @Test
    void everyDeclaredOperationHasASampleCallAndASampleResult() {
        for (Operation o : Operation.values()) {
            assertTrue(WireSamples.everyCall().stream().anyMatch(o.callType()::isInstance),
                    "WireSamples.everyCall() has no " + o.callType().getSimpleName() + ": add one");
            assertTrue(WireSamples.everyResult().stream().anyMatch(o.resultType()::isInstance),
                    "WireSamples.everyResult() has no " + o.resultType().getSimpleName() + ": add one");
        }
    }
}
