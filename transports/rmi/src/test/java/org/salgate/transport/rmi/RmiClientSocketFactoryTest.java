package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

class RmiClientSocketFactoryTest {

    @Test
    void factoriesReachingAgentsArePooledApartEvenForTheSameHost() {
        // RMI shares pooled connections between equal factories: a restarted agent must not get the dead ones
        assertNotEquals(RmiClientSocketFactory.unique("127.0.0.1", 1000), RmiClientSocketFactory.unique("127.0.0.1", 1000));
    }

    @Test
    void aUniqueFactoryEqualsItsCopyInAStub() throws Exception {
        RmiClientSocketFactory original = RmiClientSocketFactory.unique("127.0.0.1", 1000);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(original);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Object copy = in.readObject();
            assertEquals(original, copy);
            assertEquals(original.hashCode(), copy.hashCode());
        }
    }
}
