; Why depot objects are not laid out by the front end (rfc-depot-objects.md,
; section "Why not lay out the objects in the front end or in openmp-opt").
;
; A front end that puts locals of disjoint scopes into one union-like shared
; global, and keeps the TBAA it attaches to every access:
;
;   int v;
;   { int   a[16]; a[i] = 42; v = a[j]; }   // scope 1
;   { float b[16]; b[k] = y; }              // scope 2 (its reads elided)
;   { int   c[16]; c[j] = v; *out = c[k]; } // scope 3
;
; With i == j == k the program stores 42 to *out. TBAA says the float store
; cannot modify an int, so EarlyCSE (MemorySSA) deletes `c[j] = v` as storing
; the value just loaded from the same address, and *out reads b's bits.
;
; RUN: opt -S -passes='early-cse<memssa>' %s | FileCheck %s --check-prefix=CSE
; RUN: opt -S -O2 %s | FileCheck %s --check-prefix=O2
; RUN: sed 's/, !tbaa ![0-9]*//' %s | opt -S -O2 | FileCheck %s --check-prefix=NOTBAA

target triple = "nvptx64-nvidia-cuda"

@u = internal addrspace(3) global [16 x i32] poison, align 4

define void @f(ptr %out, i32 %i, i32 %j, i32 %k, float %y) {
  %a.i = getelementptr inbounds [16 x i32], ptr addrspace(3) @u, i32 0, i32 %i
  store i32 42, ptr addrspace(3) %a.i, align 4, !tbaa !2    ; a[i] = 42
  %a.j = getelementptr inbounds [16 x i32], ptr addrspace(3) @u, i32 0, i32 %j
  %v = load i32, ptr addrspace(3) %a.j, align 4, !tbaa !2   ; v = a[j]
  %b.k = getelementptr inbounds [16 x float], ptr addrspace(3) @u, i32 0, i32 %k
  store float %y, ptr addrspace(3) %b.k, align 4, !tbaa !4  ; b[k] = y
  %c.j = getelementptr inbounds [16 x i32], ptr addrspace(3) @u, i32 0, i32 %j
  store i32 %v, ptr addrspace(3) %c.j, align 4, !tbaa !2    ; c[j] = v
  %c.k = getelementptr inbounds [16 x i32], ptr addrspace(3) @u, i32 0, i32 %k
  %r = load i32, ptr addrspace(3) %c.k, align 4, !tbaa !2   ; *out = c[k]
  store i32 %r, ptr %out, align 4, !tbaa !2
  ret void
}

; CSE-LABEL: define void @f(
; CSE:         %v = load i32, ptr addrspace(3) %a.j
; CSE-NEXT:    %b.k = getelementptr
; CSE-NEXT:    store float %y, ptr addrspace(3) %b.k
; CSE-NOT:     store i32 %v
; CSE:         %r = load i32, ptr addrspace(3) %c.k

; O2-LABEL:  define void @f(
; O2-NEXT:     store float %y, ptr %out
; O2-NEXT:     ret void

; NOTBAA-LABEL: define void @f(
; NOTBAA:         store float %y, ptr addrspace(3) %b.k
; NOTBAA-NEXT:    store i32 %v, ptr addrspace(3) %a.j
; NOTBAA-NEXT:    %r = load i32, ptr addrspace(3) %b.k
; NOTBAA-NEXT:    store i32 %r, ptr %out

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!3, !3, i64 0}
!3 = !{!"int", !1, i64 0}
!4 = !{!5, !5, i64 0}
!5 = !{!"float", !1, i64 0}
