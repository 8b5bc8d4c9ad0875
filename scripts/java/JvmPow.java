// Prints Double.doubleToRawLongBits(Math.pow(K / (S / 2.0), beta)) for every segment-level
// fragmentation K / (S / 2) with 1 <= S <= maxS and 1 <= K <= S / 2, one beta per argument.
// Used by scripts/make_jvm_pow_table.py; written for meteor-eval (Apache-2.0).
public class JvmPow {
  public static void main(String[] args) {
    int maxS = Integer.parseInt(args[0]);
    StringBuilder out = new StringBuilder();
    for (int a = 1; a < args.length; a++) {
      double beta = Double.parseDouble(args[a]);
      out.append("beta ").append(args[a]).append('\n');
      for (int s = 1; s <= maxS; s++) {
        for (int k = 1; 2 * k <= s; k++) {
          double frag = k / (s / 2.0);
          out.append(Long.toHexString(Double.doubleToRawLongBits(Math.pow(frag, beta)))).append('\n');
        }
      }
    }
    System.out.print(out);
  }
}
