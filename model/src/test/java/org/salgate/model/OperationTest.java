package org.salgate.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OperationTest {

    @Test
    void everyCallTypeIsDeclaredExactlyOnce() {
        Set<Class<?>> declared = Arrays.stream(Operation.values()).map(Operation::callType).collect(Collectors.toSet());
        Set<Class<?>> callTypes = Set.of(Call.class.getPermittedSubclasses());
        assertEquals(callTypes, declared);
        assertEquals(Operation.values().length, declared.size());
    }

    @Test
    void everyResultTypeIsAResultOtherThanFailure() {
        for (Operation o : Operation.values()) {
            assertTrue(Result.class.isAssignableFrom(o.resultType()), o.name());
            assertFalse(o.resultType() == Result.Failure.class, o.name());
        }
    }

    @Test
    void aCallIsFoundByItsType() {
        assertEquals(Operation.ADD_SENSOR, Operation.of(new Call.AddSensor("<x/>")));
        assertTrue(Operation.ADD_SENSOR.adminOnly());
        assertFalse(Operation.LIST_SENSORS.adminOnly());
        assertTrue(Operation.LIST_SENSORS.inline());
        assertFalse(Operation.EXECUTE.inline());
    }

    @Test
    void onlyTheEchoesAreTransportProbesAndAnyoneMaySendThem() {
        Set<Operation> probes = Arrays.stream(Operation.values()).filter(Operation::probe).collect(Collectors.toSet());
        assertEquals(Set.of(Operation.ECHO, Operation.ECHO_READING), probes);
        for (Operation o : probes) {
            assertFalse(o.adminOnly(), o.name());
            assertTrue(o.inline(), o.name());
        }
    }
}
