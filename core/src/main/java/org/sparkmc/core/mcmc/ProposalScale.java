package org.sparkmc.core.mcmc;

import java.io.Serializable;

/**
 * A chain's adapted log proposal scale log s (Metropolis–Hastings, adaptive Metropolis's global factor log λ):
 * moved by Robbins–Monro steps during warm-up ({@link ScaleAdaptation}), frozen after.
 */
public final class ProposalScale implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Its checkpoint form: one number, log s. */
    static final StateCodec<ProposalScale> CODEC = new StateCodec<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public double[] encode(ProposalScale state) {
            return new double[] {state.log};
        }

        @Override
        public ProposalScale decode(double[] data, int dimension) {
            Packed in = Packed.reader(data);
            ProposalScale s = new ProposalScale(in.next());
            in.end();
            return s;
        }
    };

    double log;

    ProposalScale(double log) {
        this.log = log;
    }

    /** The scale s. */
    public double value() {
        return Math.exp(log);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProposalScale p && Double.compare(log, p.log) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(log);
    }

    @Override
    public String toString() {
        return "ProposalScale[log=" + log + "]";
    }
}
