package org.sparkmc.core.rjmcmc;

/**
 * How often one move type was proposed and accepted (summed over chains).
 *
 * @param move the move's label, e.g. "split"
 */
public record MoveRate(String move, long proposed, long accepted) {

    /** accepted / proposed (NaN if never proposed). */
    public double rate() {
        return proposed == 0 ? Double.NaN : (double) accepted / proposed;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%s %d/%d (%.4f)", move, accepted, proposed, rate());
    }
}
