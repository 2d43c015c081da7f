package org.salgate.plugin.os;

/** How to tell a real temperature from the "no probe" values OSHI gives. */
final class Temperatures {

    private Temperatures() {}

    /**
     * Whether {@code celsius} is a real reading: OSHI gives 0.0 or NaN when the machine has no
     * probe (as on most VMs), so those mean "not present".
     */
    static boolean isPresent(double celsius) {
        return Double.isFinite(celsius) && celsius != 0.0;
    }
}
