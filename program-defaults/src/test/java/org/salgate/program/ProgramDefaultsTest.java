package org.salgate.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProgramDefaultsTest {

    private String before;
    private String beforeOld;

    @BeforeEach
    void remember() {
        before = System.getProperty(ProgramDefaults.NETTY_LEAK_DETECTION);
        beforeOld = System.getProperty(ProgramDefaults.NETTY_LEAK_DETECTION_OLD);
        System.clearProperty(ProgramDefaults.NETTY_LEAK_DETECTION);
        System.clearProperty(ProgramDefaults.NETTY_LEAK_DETECTION_OLD);
    }

    @AfterEach
    void restore() {
        restore(ProgramDefaults.NETTY_LEAK_DETECTION, before);
        restore(ProgramDefaults.NETTY_LEAK_DETECTION_OLD, beforeOld);
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    @Test
    void nettysLeakDetectorIsTurnedOffWhenTheOperatorChoseNoLevel() {
        assertEquals("simple", ProgramDefaults.leakDetection());

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

    @Test
    void aLevelSetByNettysOlderPropertyNameIsKept() {
        System.setProperty(ProgramDefaults.NETTY_LEAK_DETECTION_OLD, "advanced");

        assertEquals("advanced", ProgramDefaults.apply());
        assertNull(System.getProperty(ProgramDefaults.NETTY_LEAK_DETECTION));
    }
}
