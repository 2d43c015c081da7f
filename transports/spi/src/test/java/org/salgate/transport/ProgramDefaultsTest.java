package org.salgate.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProgramDefaultsTest {

    private String before;

    @BeforeEach
    void remember() {
        before = System.getProperty(ProgramDefaults.NETTY_LEAK_DETECTION);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(ProgramDefaults.NETTY_LEAK_DETECTION);
        } else {
            System.setProperty(ProgramDefaults.NETTY_LEAK_DETECTION, before);
        }
    }

    @Test
    void nettysLeakDetectorIsTurnedOffWhenTheOperatorChoseNoLevel() {
        System.clearProperty(ProgramDefaults.NETTY_LEAK_DETECTION);

        assertEquals("disabled", ProgramDefaults.apply());
        assertEquals("disabled", System.getProperty(ProgramDefaults.NETTY_LEAK_DETECTION));
    }

    @Test
    void aLevelTheOperatorChoseIsKept() {
        System.setProperty(ProgramDefaults.NETTY_LEAK_DETECTION, "paranoid");

        assertEquals("paranoid", ProgramDefaults.apply());
        assertEquals("paranoid", System.getProperty(ProgramDefaults.NETTY_LEAK_DETECTION));
    }

    @Test
    void aBlankLevelCountsAsNoneChosen() {
        System.setProperty(ProgramDefaults.NETTY_LEAK_DETECTION, " ");

        assertEquals("disabled", ProgramDefaults.apply());
    }
}
