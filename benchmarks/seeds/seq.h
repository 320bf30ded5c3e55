/* seq.h - compile-time repetition for the seed benchmarks (ompds).
 *
 * SEQ(n, X) expands to X(1) X(2) ... X(n) for a decimal literal n in 1..64.
 * It is how fig5.c declares N *distinct* scalars c1..cN and fig6.c declares
 * M distinct arrays d1..dM: X is an "X-macro" that receives the index k and
 * usually pastes it onto a name (c##k).  n must be a plain integer literal
 * (e.g. -DN=16), not an expression, because it is token-pasted.
 *
 * The SEQ_<k> table below is plain, hand-checkable text: each entry adds one
 * term to the previous one.
 */
#ifndef OMPDS_SEEDS_SEQ_H
#define OMPDS_SEEDS_SEQ_H

#define SEQ_CAT_(a, b) a##b
#define SEQ_CAT(a, b) SEQ_CAT_(a, b)
#define SEQ(n, X) SEQ_CAT(SEQ_, n)(X)
#define SEQ_MAX 64

#define SEQ_1(X) X(1)
#define SEQ_2(X) SEQ_1(X) X(2)
#define SEQ_3(X) SEQ_2(X) X(3)
#define SEQ_4(X) SEQ_3(X) X(4)
#define SEQ_5(X) SEQ_4(X) X(5)
#define SEQ_6(X) SEQ_5(X) X(6)
#define SEQ_7(X) SEQ_6(X) X(7)
#define SEQ_8(X) SEQ_7(X) X(8)
#define SEQ_9(X) SEQ_8(X) X(9)
#define SEQ_10(X) SEQ_9(X) X(10)
#define SEQ_11(X) SEQ_10(X) X(11)
#define SEQ_12(X) SEQ_11(X) X(12)
#define SEQ_13(X) SEQ_12(X) X(13)
#define SEQ_14(X) SEQ_13(X) X(14)
#define SEQ_15(X) SEQ_14(X) X(15)
#define SEQ_16(X) SEQ_15(X) X(16)
#define SEQ_17(X) SEQ_16(X) X(17)
#define SEQ_18(X) SEQ_17(X) X(18)
#define SEQ_19(X) SEQ_18(X) X(19)
#define SEQ_20(X) SEQ_19(X) X(20)
#define SEQ_21(X) SEQ_20(X) X(21)
#define SEQ_22(X) SEQ_21(X) X(22)
#define SEQ_23(X) SEQ_22(X) X(23)
#define SEQ_24(X) SEQ_23(X) X(24)
#define SEQ_25(X) SEQ_24(X) X(25)
#define SEQ_26(X) SEQ_25(X) X(26)
#define SEQ_27(X) SEQ_26(X) X(27)
#define SEQ_28(X) SEQ_27(X) X(28)
#define SEQ_29(X) SEQ_28(X) X(29)
#define SEQ_30(X) SEQ_29(X) X(30)
#define SEQ_31(X) SEQ_30(X) X(31)
#define SEQ_32(X) SEQ_31(X) X(32)
#define SEQ_33(X) SEQ_32(X) X(33)
#define SEQ_34(X) SEQ_33(X) X(34)
#define SEQ_35(X) SEQ_34(X) X(35)
#define SEQ_36(X) SEQ_35(X) X(36)
#define SEQ_37(X) SEQ_36(X) X(37)
#define SEQ_38(X) SEQ_37(X) X(38)
#define SEQ_39(X) SEQ_38(X) X(39)
#define SEQ_40(X) SEQ_39(X) X(40)
#define SEQ_41(X) SEQ_40(X) X(41)
#define SEQ_42(X) SEQ_41(X) X(42)
#define SEQ_43(X) SEQ_42(X) X(43)
#define SEQ_44(X) SEQ_43(X) X(44)
#define SEQ_45(X) SEQ_44(X) X(45)
#define SEQ_46(X) SEQ_45(X) X(46)
#define SEQ_47(X) SEQ_46(X) X(47)
#define SEQ_48(X) SEQ_47(X) X(48)
#define SEQ_49(X) SEQ_48(X) X(49)
#define SEQ_50(X) SEQ_49(X) X(50)
#define SEQ_51(X) SEQ_50(X) X(51)
#define SEQ_52(X) SEQ_51(X) X(52)
#define SEQ_53(X) SEQ_52(X) X(53)
#define SEQ_54(X) SEQ_53(X) X(54)
#define SEQ_55(X) SEQ_54(X) X(55)
#define SEQ_56(X) SEQ_55(X) X(56)
#define SEQ_57(X) SEQ_56(X) X(57)
#define SEQ_58(X) SEQ_57(X) X(58)
#define SEQ_59(X) SEQ_58(X) X(59)
#define SEQ_60(X) SEQ_59(X) X(60)
#define SEQ_61(X) SEQ_60(X) X(61)
#define SEQ_62(X) SEQ_61(X) X(62)
#define SEQ_63(X) SEQ_62(X) X(63)
#define SEQ_64(X) SEQ_63(X) X(64)

#endif /* OMPDS_SEEDS_SEQ_H */
