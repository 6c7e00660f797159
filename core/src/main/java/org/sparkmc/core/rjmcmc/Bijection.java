package org.sparkmc.core.rjmcmc;

import java.io.Serializable;
import org.sparkmc.core.random.Rng;

/**
 * The deterministic part h(x, u) = (x', u') of a reversible pair of moves, with its inverse and the log |det| of
 * its Jacobian as the moves use it (Green 1995). Dimension matching: dim(x) + dim(u) = dim(x') + dim(u'). The
 * moves call these very methods, so checking them (h∘h⁻¹ = identity, the determinant against finite differences,
 * the dimensions) checks what the sampler does. The reverse move's log |det| is −{@link #logAbsDetJacobian} at
 * h⁻¹(x', u').
 */
public interface Bijection extends Serializable {

    /** A short description, e.g. "mixture split (k=3)". */
    String name();

    int xDimension();

    int uDimension();

    int xPrimeDimension();

    int uPrimeDimension();

    /** h(x, u) = (x', u'): the argument is x followed by u, the result x' followed by u'. */
    double[] forward(double[] xu);

    /** h⁻¹(x', u') = (x, u). */
    double[] inverse(double[] xuPrime);

    /** log |det ∂h(x,u)/∂(x,u)|, as the forward move uses it. */
    double logAbsDetJacobian(double[] xu);

    /** A random point (x, u) of h's domain where the move would apply it (for the reversible-pair checks). */
    double[] randomDomainPoint(Rng rng);
}
